package import LifetraceCore

/// How many events of each kind a trace holds, and the scenes they name: what `lifetrace info` reports of its
/// events, counted without decoding them (``TraceReader/tallyEvents(decodingThreads:)``).
package struct EventTally: Sendable {
    /// How many events of each tag (a kind's raw value), 256 entries.
    private var counts = [Int](repeating: 0, count: 256)
    /// The scenes the events name, gathered.
    private var sceneNames = SceneNames()

    /// An empty tally.
    package init() {}

    /// How many events of each kind (kinds the trace lacks are absent).
    package var kinds: [EventKind: Int] {
        var kinds: [EventKind: Int] = [:]
        for kind in EventKind.allCases where counts[Int(kind.rawValue)] > 0 { kinds[kind] = counts[Int(kind.rawValue)] }
        return kinds
    }

    /// The scenes the events name.
    package var scenes: Set<String> { sceneNames.names }

    /// The number of scenes the events name: ``scenes``'s count, without building the set in most traces.
    package var sceneCount: Int { sceneNames.count }

    /// Adds the events of `block`.
    mutating func add(_ block: BlockTally) {
        for tag in 0..<256 { counts[tag] &+= block.counts[tag] }
        for (string, isScene) in zip(block.strings, block.named) where isScene { sceneNames.insert(string) }
    }
}
