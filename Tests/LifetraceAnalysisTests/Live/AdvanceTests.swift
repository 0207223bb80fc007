import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// The analyzer told the time with no event (`advance(to:)`) finds a deadline as it passes: a
/// `didEnterBackground` handler written unfinished still running past its five seconds (Apple,
/// "applicationDidEnterBackground(_:)": "approximately five seconds"), a launch not yet active past its budget —
/// once, and not again at the event that would have proved it later. Times are hand-computed.
@Suite struct AdvanceTests {
    static let s: Int64 = 1_000_000_000
    /// The handler begins at 1 s + 100 ns; its budget is 5 s, so it is over from 6 s + 100 ns.
    static let callbackT = s + 100

    /// A scene-based app, active from 40 ns, entering the background at 1 s + 100 ns with its handler running.
    static let untilBackground = """
        {"lifetrace":1,"scene_manifest":true,"capture":"callbacks"}
        {"t":0,"ev":"process.launch","reason":"user"}
        {"t":10,"ev":"app.didFinishLaunching","dur":5}
        {"t":20,"ev":"scene.willConnect","scene":"S1"}
        {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":1000000000,"ev":"scene.willResignActive","scene":"S1"}
        {"t":1000000100,"ev":"scene.didEnterBackground","scene":"S1","attrs":{"unfinished":true}}
        """

    /// The handler returns at 8 s + 100 ns, after 7 s.
    static let handlerReturn =
        #"{"t":8000000100,"ev":"handler.return","scene":"S1","dur":7000000000,"name":"scene.didEnterBackground"}"#

    final class Recorded: @unchecked Sendable {
        var told: [(finding: Finding, at: Int64)] = []
        var now: Int64 = 0
    }

    static func analyzer(_ text: String) throws -> (TraceAnalyzer, Recorded) {
        let (header, events) = try AnalysisHarness.parse(text)
        let analyzer = TraceAnalyzer(file: "live", header: header)
        let recorded = Recorded()
        analyzer.onFinding = { recorded.told.append(($0, recorded.now)) }
        for event in events { analyzer.consume(event) }
        return (analyzer, recorded)
    }

    /// Ticks every 50 ms from `from` to `to`, as a live check's timer does.
    static func tick(_ analyzer: TraceAnalyzer, _ recorded: Recorded, from: Int64, to: Int64) {
        for t in stride(from: from, through: to, by: 50_000_000) {
            recorded.now = t
            analyzer.advance(to: t)
        }
    }

    @Test func aRunningBackgroundHandlerIsLT050AtTheFirstTickPastItsBudgetAndOnlyThen() throws {
        let (analyzer, recorded) = try Self.analyzer(Self.untilBackground)
        Self.tick(analyzer, recorded, from: 1_050_000_000, to: 7_950_000_000)
        let first = try #require(recorded.told.first)
        #expect(recorded.told.count == 1)
        #expect(first.finding.rule.id == "LT050")
        // 6.05 s is the first tick past 6 s + 100 ns; the handler had run 6.05 s − (1 s + 100 ns) then.
        #expect(first.at == 6_050_000_000)
        #expect(first.finding.measured == 6_050_000_000 - Self.callbackT)
        #expect(first.finding.budget == 5 * Self.s)
        #expect(first.finding.scene == "S1")
        #expect(
            first.finding.message
                == "scene.didEnterBackground handler has run 5.05s and has not returned, over its 5.00s")
        // Its return does not report it again, nor does the end.
        let (_, events) = try AnalysisHarness.parse(Self.handlerReturn)
        recorded.now = 8_000_000_100
        analyzer.consume(events[0])
        let result = analyzer.finish()
        #expect(recorded.told.count == 1)
        #expect(result.findings.map(\.rule.id) == ["LT050"])
    }

    /// Without the time told, the same events find LT050 at the return, as `check` does: the rule is the same.
    @Test func withoutAdvanceTheReturnFindsItAsCheckDoes() throws {
        let (analyzer, recorded) = try Self.analyzer(Self.untilBackground + "\n" + Self.handlerReturn)
        _ = analyzer.finish()
        #expect(recorded.told.map(\.finding.rule.id) == ["LT050"])
        #expect(recorded.told.first?.finding.measured == 7 * Self.s)
    }

    /// A handler that returns within its budget is never reported, however the time is told before its return.
    @Test func aHandlerWithinItsBudgetIsNotReported() throws {
        let (analyzer, recorded) = try Self.analyzer(Self.untilBackground)
        Self.tick(analyzer, recorded, from: 1_050_000_000, to: 6_000_000_000)
        let (_, events) = try AnalysisHarness.parse(
            #"{"t":6000000000,"ev":"handler.return","scene":"S1","dur":4999999900,"name":"scene.didEnterBackground"}"#)
        analyzer.consume(events[0])
        Self.tick(analyzer, recorded, from: 6_050_000_000, to: 20_000_000_000)
        _ = analyzer.finish()
        #expect(recorded.told.isEmpty, "\(recorded.told.map(\.finding.message))")
    }

    /// A user launch with no active scene by the launch budget is LT053 as it passes, once; the late activation
    /// does not report it again.
    @Test func aLaunchNotActiveByItsBudgetIsReportedWhileItWaits() throws {
        let launch = """
            {"lifetrace":1,"scene_manifest":true,"capture":"callbacks"}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching","dur":5}
            """
        let (analyzer, recorded) = try Self.analyzer(launch)
        let budget = try #require(AnalysisConfiguration.defaults.budget(.launch))
        Self.tick(analyzer, recorded, from: 50_000_000, to: budget + 200_000_000)
        let first = try #require(recorded.told.first)
        #expect(recorded.told.count == 1)
        #expect(first.finding.rule.id == "LT053")
        // The first tick past the budget: ticks fall on multiples of 50 ms.
        #expect(first.at == (budget / 50_000_000 + 1) * 50_000_000)
        let (_, late) = try AnalysisHarness.parse(
            """
            {"t":\(budget + 300_000_000),"ev":"scene.willConnect","scene":"S1"}
            {"t":\(budget + 300_000_010),"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":\(budget + 300_000_020),"ev":"scene.didBecomeActive","scene":"S1"}
            """)
        for event in late { analyzer.consume(event) }
        _ = analyzer.finish()
        #expect(recorded.told.map(\.finding.rule.id) == ["LT053"])
    }

    /// In the background from 1 s + 100 ns (its handler returned at once), with a background task begun at 2 s.
    static let backgroundWithTask = """
        {"lifetrace":1,"scene_manifest":true,"capture":"callbacks"}
        {"t":0,"ev":"process.launch","reason":"user"}
        {"t":10,"ev":"app.didFinishLaunching","dur":5}
        {"t":20,"ev":"scene.willConnect","scene":"S1"}
        {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":1000000000,"ev":"scene.willResignActive","scene":"S1"}
        {"t":1000000100,"ev":"scene.didEnterBackground","scene":"S1","dur":1000}
        {"t":2000000000,"ev":"task.begin","task":7,"name":"upload"}
        """

    /// A background task begun in the background runs past its 30 s budget at 32 s: LT043 at the first tick past
    /// it, once; its late end and the end of the trace report it no more.
    @Test func aBackgroundTaskPastItsBudgetIsReportedWhileOpen() throws {
        let (analyzer, recorded) = try Self.analyzer(Self.backgroundWithTask)
        let budget = try #require(AnalysisConfiguration.defaults.budget(.backgroundTask))
        Self.tick(analyzer, recorded, from: 2_050_000_000, to: 2 * Self.s + budget + 500_000_000)
        let first = try #require(recorded.told.first)
        #expect(recorded.told.count == 1)
        #expect(first.finding.rule.id == "LT043")
        #expect(first.at == 2 * Self.s + budget + 50_000_000)
        #expect(first.finding.measured == budget + 50_000_000)
        let (_, end) = try AnalysisHarness.parse(#"{"t":40000000000,"ev":"task.end","task":7}"#)
        analyzer.consume(end[0])
        let result = analyzer.finish()
        #expect(result.findings.map(\.rule.id) == ["LT043"])
        // Without the time told, the end finds the same rule, as check does.
        let (checkAnalyzer, checked) = try Self.analyzer(
            Self.backgroundWithTask + "\n" + #"{"t":40000000000,"ev":"task.end","task":7}"#)
        _ = checkAnalyzer.finish()
        #expect(checked.told.map(\.finding.rule.id) == ["LT043"])
    }

    /// Its expiration handler ran at 10 s and the task is still open past the 1 s grace: LT042 at the first tick
    /// past 11 s, once; the process's end reports it no more.
    @Test func anExpirationLeftUnansweredIsReportedWhileOpen() throws {
        let text = Self.backgroundWithTask + "\n" + #"{"t":10000000000,"ev":"task.expire","task":7}"#
        let (analyzer, recorded) = try Self.analyzer(text)
        Self.tick(analyzer, recorded, from: 10_050_000_000, to: 15_000_000_000)
        let first = try #require(recorded.told.first)
        #expect(recorded.told.count == 1)
        #expect(first.finding.rule.id == "LT042")
        #expect(first.at == 11_050_000_000)
        #expect(first.finding.measured == 1_050_000_000)
        let (_, relaunch) = try AnalysisHarness.parse(#"{"t":600000000000,"ev":"process.launch","reason":"user"}"#)
        analyzer.consume(relaunch[0])
        let result = analyzer.finish()
        #expect(result.findings.map(\.rule.id) == ["LT042"])
    }
}
