import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// Every rule of the catalogue can trigger: a trace for each, the rule's finding from it, and the declaration
/// of where it is checked agrees with where the finding came from. A rule added without a trace that
/// triggers it fails here.
@Suite struct RuleCatalogTests {
    static let s = 1_000_000_000
    static let launch = SeedSequenceTests.launch
    /// A service process with one service started.
    static let service = """
        {"lifetrace":1,"lifecycle":"service"}
        {"t":0,"ev":"process.launch","reason":"unknown"}
        {"t":10,"ev":"service.start","scene":"http"}
        """
    static let background =
        launch + """

            {"t":50,"ev":"scene.willResignActive","scene":"S1"}
            {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
            """

    /// A trace that triggers each rule, with the configuration it needs.
    static let triggers: [RuleID: (trace: String, configuration: AnalysisConfiguration)] = {
        let s = Self.s
        var inactiveBudget = AnalysisConfiguration.defaults
        inactiveBudget.budgets["inactiveEpisode"] = 1 * Int64(s)
        let table: [RuleID: String] = [
            "LT001": launch + "\n{\"t\":50,\"ev\":\"scene.didBecomeActive\",\"scene\":\"S1\"}",
            "LT002": launch
                + "\n{\"t\":50,\"ev\":\"scene.willResignActive\",\"scene\":\"S1\"}\n{\"t\":60,\"ev\":\"scene.willResignActive\",\"scene\":\"S1\"}",
            "LT003": launch + "\n{\"t\":50,\"ev\":\"scene.didEnterBackground\",\"scene\":\"S1\"}",
            "LT004": launch + "\n{\"t\":50,\"ev\":\"scene.willEnterForeground\",\"scene\":\"S1\"}",
            "LT005": launch + "\n{\"t\":50,\"ev\":\"scene.didDisconnect\",\"scene\":\"S1\"}",
            "LT006": launch + "\n{\"t\":50,\"ev\":\"scene.didBecomeActive\",\"scene\":\"S9\"}",
            "LT007": launch + "\n{\"t\":50,\"ev\":\"scene.willConnect\",\"scene\":\"S1\"}",
            "LT010": launch + "\n{\"t\":50,\"ev\":\"app.didFinishLaunching\"}",
            "LT011": """
            {"lifetrace":1,"scene_manifest":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"scene.willConnect","scene":"S1"}
            """,
            "LT012": launch + "\n{\"t\":50,\"ev\":\"app.willTerminate\"}",
            "LT013": background
                + "\n{\"t\":70,\"ev\":\"app.willTerminate\",\"dur\":10}\n{\"t\":100,\"ev\":\"scene.willEnterForeground\",\"scene\":\"S1\"}",
            "LT020": launch + "\n{\"t\":50,\"ev\":\"app.didBecomeActive\"}",
            "LT021": AppNotificationTests.launch + "\n{\"t\":50,\"ev\":\"app.didEnterBackground\"}",
            "LT030": launch
                + "\n{\"t\":50,\"ev\":\"swiftui.scenePhase\",\"scene\":\"S1\",\"phase\":\"active\"}\n{\"t\":60,\"ev\":\"swiftui.scenePhase\",\"phase\":\"background\"}",
            "LT031": launch
                + "\n{\"t\":50,\"ev\":\"swiftui.scenePhase\",\"scene\":\"S1\",\"phase\":\"active\"}\n{\"t\":60,\"ev\":\"swiftui.scenePhase\",\"scene\":\"S1\",\"phase\":\"active\"}",
            "LT040": launch + "\n{\"t\":50,\"ev\":\"task.end\",\"task\":3}",
            "LT041": background
                + "\n{\"t\":70,\"ev\":\"task.begin\",\"task\":1}\n{\"t\":\(70 + 31 * s),\"ev\":\"process.exit\",\"reason\":\"SIGKILL\"}",
            "LT042": background
                + "\n{\"t\":70,\"ev\":\"task.begin\",\"task\":1}\n{\"t\":80,\"ev\":\"task.expire\",\"task\":1}\n{\"t\":\(80 + 2 * s),\"ev\":\"task.end\",\"task\":1}",
            "LT043": background
                + "\n{\"t\":70,\"ev\":\"task.begin\",\"task\":1}\n{\"t\":\(60 + 31 * s),\"ev\":\"task.end\",\"task\":1}",
            "LT044": background
                + "\n{\"t\":70,\"ev\":\"bg.refresh.begin\",\"task\":1}\n{\"t\":80,\"ev\":\"task.expire\",\"task\":1}\n{\"t\":\(80 + 2 * s),\"ev\":\"process.exit\",\"reason\":\"SIGKILL\"}",
            "LT045": background
                + "\n{\"t\":70,\"ev\":\"bg.refresh.begin\",\"task\":1}\n{\"t\":80,\"ev\":\"task.expire\",\"task\":1}\n{\"t\":\(80 + 2 * s),\"ev\":\"bg.refresh.end\",\"task\":1}",
            "LT050": launch
                + "\n{\"t\":50,\"ev\":\"scene.willResignActive\",\"scene\":\"S1\"}\n{\"t\":60,\"ev\":\"scene.didEnterBackground\",\"scene\":\"S1\",\"dur\":\(6 * s)}",
            "LT051": background + "\n{\"t\":\(70 + s),\"ev\":\"app.willTerminate\",\"dur\":\(6 * s)}",
            "LT052": background
                + "\n{\"t\":70,\"ev\":\"bg.refresh.begin\",\"task\":1}\n{\"t\":\(70 + 31 * s),\"ev\":\"bg.refresh.end\",\"task\":1}",
            "LT053": """
            {"lifetrace":1,"scene_manifest":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"scene.willConnect","scene":"S1"}
            {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":\(6 * s),"ev":"scene.didBecomeActive","scene":"S1"}
            """,
            "LT054": launch
                + "\n{\"t\":50,\"ev\":\"scene.willResignActive\",\"scene\":\"S1\"}\n{\"t\":\(50 + 2 * s),\"ev\":\"scene.didBecomeActive\",\"scene\":\"S1\"}",
            "LT060": """
            {"lifetrace":1,"lifecycle":"appkit"}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"app.didEnterBackground"}
            """,
            "LT061": """
            {"lifetrace":1,"lifecycle":"watchkit"}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"app.willTerminate"}
            """,
            "LT062": """
            {"lifetrace":1,"lifecycle":"app-extension"}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            """,
            "LT070": """
            {"lifetrace":1,"scene_manifest":true,"ground_truth":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"scene.willConnect","scene":"S1"}
            {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
            {"t":50,"ev":"scene.willResignActive","scene":"S1"}
            {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
            {"t":70,"ev":"process.suspend"}
            {"t":80,"ev":"custom.timer"}
            """,
            "LT080": background
                + "\n{\"t\":70,\"ev\":\"app.willTerminate\",\"dur\":100}\n{\"t\":80,\"ev\":\"custom.save\"}",
            "LT090": service + "\n{\"t\":20,\"ev\":\"service.stopped\",\"scene\":\"http\"}",
            "LT091": service
                + "\n{\"t\":20,\"ev\":\"service.shutdown\",\"scene\":\"http\"}\n{\"t\":\(20 + 31 * s),\"ev\":\"service.stopped\",\"scene\":\"http\"}",
            "LT092": service
                + "\n{\"t\":20,\"ev\":\"service.shutdown\",\"scene\":\"http\"}\n{\"t\":30,\"ev\":\"service.stopped\",\"scene\":\"http\"}\n{\"t\":40,\"ev\":\"service.ready\",\"scene\":\"http\"}",
            "LT093": service
                + "\n{\"t\":20,\"ev\":\"service.signal\",\"reason\":\"SIGTERM\"}\n{\"t\":30,\"ev\":\"service.shutdown\",\"scene\":\"http\"}\n{\"t\":\(20 + 30 * s),\"ev\":\"heartbeat\"}",
            "LT094": service + "\n{\"t\":\(91 * s),\"ev\":\"service.ready\",\"scene\":\"http\"}",
            "LT095": service
                + "\n{\"t\":20,\"ev\":\"service.shutdown\",\"scene\":\"http\"}\n{\"t\":30,\"ev\":\"service.stopped\",\"scene\":\"http\",\"attrs\":{\"cancelled\":true}}",
            "LT096": service + "\n{\"t\":20,\"ev\":\"service.start\",\"scene\":\"http\"}",
            "LT097": service
                + "\n{\"t\":15,\"ev\":\"service.start\",\"scene\":\"worker\"}\n{\"t\":20,\"ev\":\"service.shutdown\",\"scene\":\"http\"}",
        ]
        return table.mapValues { ($0, .defaults) }.merging(["LT054": (table["LT054"]!, inactiveBudget)]) { $1 }
    }()

    @Test func everyRuleHasATriggeringTrace() {
        #expect(Set(Self.triggers.keys) == Set(RuleCatalog.all.map(\.id)))
    }

    @Test(arguments: RuleCatalog.all.map(\.id))
    func theRuleTriggersWhereItIsDeclaredToBeChecked(id: RuleID) throws {
        let rule = try #require(RuleCatalog.rule(id))
        let (trace, configuration) = try #require(Self.triggers[id], "no trace triggers \(id)")
        let (header, events) = try AnalysisHarness.parse(trace)
        let result = AnalysisHarness.analyze(events, header: header, configuration: configuration)
        let finding = try #require(
            result.findings.first { $0.rule.id == id },
            "\(id) did not trigger: \(result.findings.map(\.message))")
        switch rule.check {
        case .model:
            // A built-in model names the rule.
            let named = LifecycleModel.builtIn.contains { model in
                model.transitions.contains { $0.rule == id } || model.violations.contains { $0.rule == id }
                    || model.handlerBudgets.contains { $0.rule == id }
                    || model.stateBudgets.values.contains { $0.rule == id }
            }
            #expect(named, "\(id) is declared as a model's rule, but no built-in model names it")
        case let .events(kinds):
            let kind = try #require(
                EventKind(name: finding.eventName) ?? (finding.eventName.hasPrefix("custom.") ? .custom : nil))
            #expect(kinds.contains(kind), "\(id) came from \(finding.eventName), not one of the kinds it declares")
        case .tasks, .process:
            break
        }
    }
}
