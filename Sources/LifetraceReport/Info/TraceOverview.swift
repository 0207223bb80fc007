package import LifetraceCore
package import LifetraceFormat

/// What `lifetrace info` reports about one trace — its format, header, events, time span, kinds, scenes,
/// frames, size and damage — gathered in one pass that also verifies every event.
package struct TraceOverview {
    /// The trace's path, as given.
    package var path: String
    /// Binary or JSON Lines.
    package var format: TraceReader.Format
    /// The trace's header, if it has one.
    package var header: TraceHeader?
    /// What reading the whole trace counted.
    package var statistics: TraceStatistics
    /// What reading the trace warned of.
    package var warnings: [TraceWarning]
    /// How many events of each kind the trace holds (kinds it lacks are absent).
    package var kinds: [EventKind: Int] = [:]
    /// How many events of each kind, and the scenes they name.
    private let tally: EventTally

    /// The scenes the events name.
    package var scenes: Set<String> { tally.scenes }

    /// The number of scenes the events name (``scenes``'s count, without building the set).
    package var sceneCount: Int { tally.sceneCount }

    /// Reads every event of `reader`, the trace at `path`, on up to `decodingThreads` threads: each is checked as
    /// any reading checks it, and counted without being decoded (``TraceReader/tallyEvents(decodingThreads:)``).
    package init(path: String, reader: TraceReader, decodingThreads: Int) throws {
        self.path = path
        format = reader.format
        header = reader.header
        tally = try reader.tallyEvents(decodingThreads: decodingThreads)
        kinds = tally.kinds
        statistics = reader.statistics
        warnings = reader.warnings
    }

    /// The time from the first event to the last, if the trace has events.
    package var span: Int64? {
        guard let first = statistics.firstT, let last = statistics.lastT else { return nil }
        return last - first
    }

    /// What damage reading met, in words.
    package var damage: String {
        var found: [String] = []
        if statistics.truncated { found.append("truncated (events before the incomplete end were read)") }
        if statistics.indexPresent, !statistics.indexConsistent {
            found.append("data frames missing or changed (the index disagrees)")
        }
        return found.isEmpty ? "none" : found.joined(separator: "; ")
    }
}
