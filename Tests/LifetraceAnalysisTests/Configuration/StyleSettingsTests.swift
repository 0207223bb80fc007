import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceAnalysis

/// `lifetrace.json`'s `styles` settings apply to the trace whose header names that style: the simulator writes
/// the style, the configuration reads it through the same type.
@Suite struct StyleSettingsTests {
    /// Each style's own budget for `didEnterBackground`, in seconds, besides the top-level 4 s.
    static let file: JSONValue = .object([
        ("budgets", budget("4s")),
        (
            "styles",
            .object([
                ("uikit-scenes", .object([("budgets", budget("1s"))])),
                ("app-delegate", .object([("budgets", budget("2s"))])),
                ("swiftui", .object([("budgets", budget("3s"))])),
                ("custom", .object([("budgets", budget("6s"))])),
            ])
        ),
    ])

    static func budget(_ text: String) -> JSONValue { .object([("didEnterBackground", .string(text))]) }

    static func budget(for header: TraceHeader?) throws -> Int64? {
        try AnalysisConfiguration(file, file: "lifetrace.json", for: header).budget(.didEnterBackground)
    }

    @Test(arguments: [(AppStyle.uikitScenes, Int64(1)), (.appDelegate, 2), (.swiftui, 3)])
    func aSimulatedTraceGetsItsStylesSettings(style: AppStyle, seconds: Int64) throws {
        let header = Simulator(configuration: .init(scenario: .coldLaunch, style: style)).header
        #expect(header.appStyle == style)
        #expect(try Self.budget(for: header) == seconds * 1_000_000_000)
    }

    @Test func anAppWithoutASceneManifestThatNamesNoStyleIsAnAppDelegateApp() throws {
        #expect(try Self.budget(for: TraceHeader(sceneManifest: false)) == 2_000_000_000)
        #expect(try Self.budget(for: TraceHeader(sceneManifest: true)) == 4_000_000_000)
        #expect(try Self.budget(for: nil) == 4_000_000_000)
    }

    @Test func aStyleLifetraceDoesNotKnowSelectsItsOwnSettings() throws {
        var header = TraceHeader(sceneManifest: false)
        header[.style] = "custom"
        #expect(header.appStyle == nil)
        #expect(try Self.budget(for: header) == 6_000_000_000)
    }
}
