import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// The analyzer's table of layers by tag (a ``KindTable``).
@Suite struct LayerTableTests {
    /// The analyzer's table of layers, against the layers documented for each prefix (``EventLayer``): `process.*`
    /// the process's, `task.*` background execution's, `scene.*` the scene delegate's; a tag no kind has is custom.
    @Test func theAnalyzersLayersByTagFollowTheKindsPrefixes() {
        let core = AnalysisCore(file: "t", header: nil, configuration: .defaults, models: [], observer: nil)
        #expect(core.layers[EventKind.processLaunch.rawValue] == .process)
        #expect(core.layers[EventKind.processExit.rawValue] == .process)
        #expect(core.layers[EventKind.taskBegin.rawValue] == .task)
        #expect(core.layers[EventKind.sceneDidBecomeActive.rawValue] == .scene)
        #expect(core.layers[EventKind.heartbeat.rawValue] == .system)
        let unused = (UInt8.min...UInt8.max).first { EventKind(rawValue: $0) == nil }
        #expect(unused != nil)
        if let unused { #expect(core.layers[unused] == .custom) }
    }
}
