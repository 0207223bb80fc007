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
    /// The scenes the events name.
    package var scenes: Set<String> = []

    /// Reads every event of `reader`, the trace at `path`, decoding on up to `decodingThreads` threads.
    package init(path: String, reader: TraceReader, decodingThreads: Int) throws {
        self.path = path
        format = reader.format
        header = reader.header
        var counts = [Int](repeating: 0, count: 256)
        var scenes = Set<String>()
        // Which strings of the block name a scene, shifted by one: slot 0 takes the events that name none, so the
        // loop marks a slot for every event with no branch, and each scene is looked up once per block.
        var named: [Bool] = []
        try reader.forEachBlock(decodingThreads: decodingThreads) { block in
            named.removeAll(keepingCapacity: true)
            named.append(contentsOf: repeatElement(false, count: block.strings.count + 1))
            block.records.withUnsafeBufferPointer { records in
                counts.withUnsafeMutableBufferPointer { counts in
                    named.withUnsafeMutableBufferPointer { named in
                        for record in records {
                            counts[Int(record.tag)] &+= 1
                            named[Int(record.scene) &+ 1] = true
                        }
                    }
                }
            }
            for (string, isScene) in zip(block.strings, named.dropFirst()) where isScene { scenes.insert(string) }
        }
        for kind in EventKind.allCases where counts[Int(kind.rawValue)] > 0 { kinds[kind] = counts[Int(kind.rawValue)] }
        self.scenes = scenes
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
        statistics.truncated ? "truncated (events before the incomplete end were read)" : "none"
    }
}
