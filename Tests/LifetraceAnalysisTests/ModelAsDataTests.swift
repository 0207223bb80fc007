import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceTestSupport
import Testing

/// A lifecycle the engine was not written for, added as data alone.
@Suite struct ModelAsDataTests {
    static let model: LifecycleModel = {
        let path = PackagePaths.path("Tests/LifetraceAnalysisTests/Fixtures/android-activity.json")
        return try! LifecycleModel(contentsOf: path)
    }()

    func run(_ labels: [String]) -> AnalysisResult {
        let events = labels.enumerated().map {
            LifecycleEvent(t: Int64($0.offset) * 1000, kind: .custom, label: $0.element)
        }
        return AnalysisHarness.analyze(events, header: nil, models: LifecycleModel.builtIn + [Self.model])
    }

    @Test func aLegalActivityLifecycleHasNoFinding() {
        let result = run([
            "onCreate", "onStart", "onResume", "onPause", "onStop", "onStart", "onResume", "onPause",
            "onStop", "onDestroy",
        ])
        #expect(result.findings.isEmpty)
    }

    @Test func aSkippedStepIsAFindingOfTheModelsOwnRule() throws {
        let result = run(["onCreate", "onResume"])
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.rule.id == "AND002")
        #expect(finding.rule.title == "onResume without onStart")
        #expect(finding.eventIndex == 1)
        #expect(finding.message == "custom.onResume while android-activity is created")
    }

    @Test func theModelsStatesAreAccounted() {
        let result = run(["onCreate", "onStart", "onResume", "onPause", "onStop"])
        let times = result.scenes.first { $0.scene == "app" }?.times
        #expect(times?.active == 1000)  // resumed from t=2000 to t=3000
        #expect(times?.inactive == 2000)  // started 1000..2000, paused 3000..4000
    }

    /// A model that is no JSON names its file once, then the byte: `x.json: byte 2: expected a key`.
    @Test func aModelThatIsNoJSONNamesItsFileOnce() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("x.json", text: "{\n")
        #expect {
            try LifecycleModel(contentsOf: path)
        } throws: { error in
            (error as? ModelError)?.description == "\(path): byte 2: expected a key"
        }
    }

    @Test func anInvalidModelIsRejectedWithTheReason() throws {
        let directory = TemporaryDirectory()
        let path = directory.write(
            "bad.json",
            text:
                #"{"name":"x","initial":"a","states":{"a":{}},"transitions":[{"event":"heartbeat","from":["a"],"to":"b","rule":"LT001"}]}"#
        )
        #expect {
            try LifecycleModel(contentsOf: path)
        } throws: { error in
            (error as? ModelError)?.description == "\(path): transition on \"heartbeat\" names the unknown state \"b\""
        }
    }

    /// 64 states are accepted and used; a 65th is refused with the reason, not misread.
    @Test(arguments: [64, 65])
    func aModelHasAtMostSixtyFourStates(count: Int) throws {
        let states = (0..<count).map { "\"s\($0)\":{}" }.joined(separator: ",")
        let last = "s\(count - 1)"
        let json =
            #"{"name":"many","initial":"s0","states":{"# + states
            + #"},"transitions":[{"event":"custom.step","from":["s0"],"to":""# + last + #"","rule":"LT001"}]}"#
        let directory = TemporaryDirectory()
        let path = directory.write("many.json", text: json)
        if count <= LifecycleModel.maxStates {
            let model = try LifecycleModel(contentsOf: path)
            #expect(model.states.count == count)
            // The transition into the 64th state, and a second step from there, which the model forbids.
            let result = AnalysisHarness.analyze(
                [
                    LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
                    LifecycleEvent(t: 10, kind: .custom, label: "step"),
                    LifecycleEvent(t: 20, kind: .custom, label: "step"),
                ], models: [model])
            #expect(result.findings.map(\.rule.id) == ["LT001"])
        } else {
            #expect {
                try LifecycleModel(contentsOf: path)
            } throws: { error in
                (error as? ModelError)?.description == "\(path): a model has at most 64 states; this one has 65"
            }
        }
    }

    @Test func everyBuiltInModelParsesAndNamesCatalogueRules() {
        #expect(
            Set(LifecycleModel.builtIn.map(\.name))
                == [
                    "app-ui", "app-termination", "process", "scene", "swiftui-scene", "watchkit-app", "appkit-app",
                    "app-extension",
                    "service",
                ])
        for model in LifecycleModel.builtIn {
            for transition in model.transitions {
                if let rule = transition.rule {
                    #expect(RuleCatalog.rule(rule) != nil)
                } else {
                    // Only a transition legal in every state may name no rule.
                    #expect(transition.from == Set(model.states.keys))
                }
            }
            for violation in model.violations { #expect(RuleCatalog.rule(violation.rule) != nil) }
        }
    }
}
