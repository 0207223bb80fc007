import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// What a model's JSON says of where it applies (`applies_when.lifecycle`) and of transitions legal in every
/// state (`"*"`, no rule), as `--models` reads it.
@Suite struct ModelConditionTests {
    static func model(_ json: String) throws -> LifecycleModel {
        try LifecycleModel(json: try JSONValue(parsing: json, file: "m.json"), file: "m.json")
    }

    static func model(appliesWhen: String) throws -> LifecycleModel {
        try model(
            #"{"name":"m","applies_when":"# + appliesWhen
                + #","initial":"a","states":{"a":{}},"transitions":[{"event":"custom.x","from":["a"],"to":"a","rule":"LT001"}]}"#
        )
    }

    @Test func aModelAppliesToTheLifecyclesItNames() throws {
        let one = try Self.model(appliesWhen: #"{"lifecycle":"appkit"}"#)
        #expect(one.appliesWhenLifecycle == [.appkit])
        #expect(
            one.applies(sceneManifest: nil, lifecycle: .appkit) && !one.applies(sceneManifest: nil, lifecycle: .uikit))
        let two = try Self.model(appliesWhen: #"{"lifecycle":["watchkit","app-extension"],"scene_manifest":false}"#)
        #expect(two.appliesWhenLifecycle == [.watchkit, .appExtension])
        #expect(two.applies(sceneManifest: false, lifecycle: .appExtension))
        #expect(
            !two.applies(sceneManifest: true, lifecycle: .appExtension)
                && !two.applies(sceneManifest: false, lifecycle: .appkit))
        let any = try Self.model(appliesWhen: "{}")
        #expect(any.appliesWhenLifecycle == nil)
        #expect(TraceHeader.Lifecycle.allCases.allSatisfy { any.applies(sceneManifest: nil, lifecycle: $0) })
    }

    @Test(arguments: [
        (
            #"{"lifecycle":"android"}"#,
            #"m.json: "lifecycle" must be one of uikit, watchkit, appkit, app-extension, service; "android" is none of them"#
        ),
        (#"{"lifecycle":true}"#, #"m.json: "lifecycle" must be a string or an array of strings"#),
        (#"{"lifecycle":[1]}"#, #"m.json: "lifecycle" must be a string or an array of strings"#),
    ])
    func aBadLifecycleIsRejectedWithTheReason(appliesWhen: String, message: String) {
        #expect {
            try Self.model(appliesWhen: appliesWhen)
        } throws: { error in
            (error as? ModelError)?.description == message
        }
    }

    /// The built-in models: UIKit's apply to traces that say nothing; each other lifecycle has its model.
    @Test func theBuiltInModelsApplyByLifecycle() {
        func names(_ lifecycle: TraceHeader.Lifecycle, manifest: Bool?) -> Set<String> {
            Set(LifecycleModel.builtIn.filter { $0.applies(sceneManifest: manifest, lifecycle: lifecycle) }.map(\.name))
        }
        #expect(names(.uikit, manifest: true) == ["process", "app-termination", "scene", "swiftui-scene"])
        #expect(names(.uikit, manifest: false) == ["process", "app-termination", "scene", "swiftui-scene", "app-ui"])
        #expect(names(.watchkit, manifest: nil) == ["process", "swiftui-scene", "watchkit-app"])
        #expect(names(.appkit, manifest: nil) == ["process", "appkit-app"])
        #expect(names(.appExtension, manifest: nil) == ["app-extension"])
    }

    /// `"*"` is every state, for a transition's `from` and a violation's `state`; a transition legal in every
    /// state needs no rule, and is taken from any state without a finding.
    @Test func aStarStandsForEveryState() throws {
        let model = try Self.model(
            #"""
            {"name":"m","initial":"a","states":{"a":{},"b":{},"c":{}},
             "transitions":[{"event":"custom.reset","from":["*"],"to":"a"},
                            {"event":"custom.next","from":["a"],"to":"b","rule":"LT001"}],
             "violations":[{"state":"*","rule":"LT002","events":["app.didHide"]}]}
            """#)
        #expect(model.transitions[0].from == ["a", "b", "c"] && model.transitions[0].rule == nil)
        #expect(model.violations.map(\.state) == ["a", "b", "c"])
        let result = AnalysisHarness.analyze(
            [
                LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
                LifecycleEvent(t: 10, kind: .custom, label: "next"),
                LifecycleEvent(t: 20, kind: .custom, label: "reset"),
                LifecycleEvent(t: 30, kind: .custom, label: "reset"),
                LifecycleEvent(t: 40, kind: .custom, label: "next"),
                LifecycleEvent(t: 50, kind: .appDidHide),
            ], header: nil, models: [model])
        #expect(result.findings.map(\.rule.id) == ["LT002"])
    }

    @Test func aTransitionWithoutARuleMustBeLegalInEveryState() {
        #expect {
            try Self.model(
                #"{"name":"m","initial":"a","states":{"a":{},"b":{}},"transitions":[{"event":"custom.x","from":["a"],"to":"b"}]}"#
            )
        } throws: { error in
            (error as? ModelError)?.description
                == #"m.json: transition on "custom.x" needs a "rule": it is not legal in every state"#
        }
    }
}
