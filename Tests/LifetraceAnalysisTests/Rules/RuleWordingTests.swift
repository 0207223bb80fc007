import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import Testing

/// A finding names the callback the trace's platform has, from the rule's own declaration (``Rule/titles``):
/// LT003 in a WatchKit app or an app without scenes is applicationDidEnterBackground without
/// applicationWillResignActive (Apple, “Working with the watchOS app life cycle”; “Managing your app’s life
/// cycle”: without scenes, UIKit reports the life-cycle events to the app delegate), in an extension its host's
/// notifications, in a scene-based app the scene delegate's methods.
@Suite struct RuleWordingTests {
    static let ms: Int64 = 1_000_000

    /// A launch, then active, then the background with no resign: LT003 in each app-delegate-style lifecycle.
    static func skipsResign(_ lifecycle: TraceHeader.Lifecycle, sceneManifest: Bool? = nil) throws -> Finding {
        var header = TraceHeader(sceneManifest: sceneManifest)
        header.lifecycle = lifecycle
        let events = [
            LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
            LifecycleEvent(t: 1 * ms, kind: .appDidFinishLaunching),
            LifecycleEvent(t: 2 * ms, kind: .appWillEnterForeground),
            LifecycleEvent(t: 3 * ms, kind: .appDidBecomeActive),
            LifecycleEvent(t: 4 * ms, kind: .appDidEnterBackground),
        ]
        let result = AnalysisHarness.analyze(events, header: header)
        let lt003 = result.findings.filter { $0.rule.id == .backgroundWithoutResign }
        try #require(lt003.count == 1, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
        return lt003[0]
    }

    @Test func watchKitAndAppDelegateAppsNameTheApplicationsCallbacks() throws {
        let title = "applicationDidEnterBackground without applicationWillResignActive"
        let watch = try Self.skipsResign(.watchkit)
        #expect(watch.rule.title == title)
        #expect(watch.description.contains("error LT003: \(title)"))
        #expect(!watch.description.contains("scene"))
        #expect(try Self.skipsResign(.uikit, sceneManifest: false).rule.title == title)
    }

    @Test func aSceneBasedAppNamesTheScenesCallbacks() throws {
        var header = TraceHeader(sceneManifest: true)
        header.lifecycle = .uikit
        let events = [
            LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
            LifecycleEvent(t: 1 * Self.ms, kind: .appDidFinishLaunching),
            LifecycleEvent(t: 2 * Self.ms, kind: .sceneWillConnect, scene: "S1"),
            LifecycleEvent(t: 3 * Self.ms, kind: .sceneWillEnterForeground, scene: "S1"),
            LifecycleEvent(t: 4 * Self.ms, kind: .sceneDidBecomeActive, scene: "S1"),
            LifecycleEvent(t: 5 * Self.ms, kind: .sceneDidEnterBackground, scene: "S1"),
        ]
        let result = AnalysisHarness.analyze(events, header: header)
        #expect(result.findings.map(\.rule.id) == [.backgroundWithoutResign])
        #expect(result.findings.first?.rule.title == "sceneDidEnterBackground without sceneWillResignActive")
    }

    /// The catalogue's entry keeps the scene's wording, and each family's title is declared with the rule.
    @Test func theCatalogueDeclaresEachFamilysTitle() throws {
        let rule = try #require(RuleCatalog.rule(.backgroundWithoutResign))
        #expect(rule.title == "sceneDidEnterBackground without sceneWillResignActive")
        #expect(rule.title(for: .watchKit) == "applicationDidEnterBackground without applicationWillResignActive")
        #expect(
            rule.title(for: .appExtension)
                == "NSExtensionHostDidEnterBackground without NSExtensionHostWillResignActive")
        #expect(rule.title(for: .scene) == rule.title)
        #expect(CallbackFamily(header: nil) == .scene)
    }
}

/// A model declares its rules' titles by callback family too (`titles` in its JSON), and a finding of its rule in
/// a trace of that family shows that title.
@Suite struct ModelRuleWordingTests {
    static let model = #"""
        {"name": "door", "initial": "closed", "states": {"closed": {}, "open": {}},
         "transitions": [{"event": "custom.open", "from": ["closed"], "to": "open", "rule": "LT900"}],
         "rules": [{"id": "LT900", "severity": "error", "title": "door opened twice",
                    "titles": {"watchkit": "crown pressed twice"}}]}
        """#

    @Test func aModelsRuleIsTitledForTheTracesPlatform() throws {
        let model = try LifecycleModel(json: try JSONValue(parsing: Self.model, file: "door.json"), file: "door.json")
        let rule = try #require(model.rules.first)
        #expect(rule.title(for: .watchKit) == "crown pressed twice" && rule.title(for: .scene) == "door opened twice")
        var header = TraceHeader()
        header.lifecycle = .watchkit
        let events = [
            LifecycleEvent(t: 0, kind: .custom, label: "open"), LifecycleEvent(t: 1, kind: .custom, label: "open"),
        ]
        let result = AnalysisHarness.analyze(events, header: header, models: [model])
        #expect(result.findings.map(\.rule.title) == ["crown pressed twice"])
    }

    @Test func titlesMustMapKnownFamiliesToText() {
        let bad = Self.model.replacingOccurrences(
            of: #""watchkit": "crown pressed twice""#, with: #""android": "twice""#)
        #expect(throws: ModelError.self) {
            try LifecycleModel(json: try JSONValue(parsing: bad, file: "door.json"), file: "door.json")
        }
    }
}
