import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceRecorder
import LifetraceTestSupport
import LifetraceTesting
import Testing

/// Every assertion the UI-test recipe of docs/recorder.md makes (and the example app's UI test, which runs it) can
/// fail: each is shown holding on a good trace and failing on a bad one, recorded as the recipe records them, from
/// the notifications UIKit posts. An assertion that cannot fail proves nothing.
@Suite struct RecipeAssertionTests {
    let directory = TemporaryDirectory()
    typealias Posts = [(String, String?)]
    static let launch: Posts = LifecycleTraceTests.launch
    static let toBackground: Posts = LifecycleTraceTests.toBackground
    static let toForeground: Posts = [
        ("UISceneWillEnterForegroundNotification", "S1"), ("UIApplicationWillEnterForegroundNotification", nil),
        ("UISceneDidActivateNotification", "S1"), ("UIApplicationDidBecomeActiveNotification", nil),
    ]
    /// The example app's run: launched, to the background, back, to the background again.
    static let recipeRun: Posts = launch + toBackground + toForeground + toBackground

    func trace(_ name: String, _ posts: Posts, measure: Bool = false) throws -> LifecycleTrace {
        try LifecycleTrace(contentsOf: LifecycleTraceTests().recordIn(directory, name, posts, measure: measure))
    }

    /// The recipe's own run passes every assertion it documents.
    @Test func theRecipesRunPassesEveryAssertion() throws {
        let trace = try trace("recipe.lifetrace", Self.recipeRun)
        trace.expectNoLifecycleErrors()
        #expect(trace.time.active > 0)
        #expect(trace.events.filter { $0.kind == .sceneDidEnterBackground }.count == 2)
    }

    /// `XCTAssertNoLifecycleErrors(trace)` / `expectNoLifecycleErrors()`: a scene entering the background without
    /// resigning active first (Apple, "Managing your app's life cycle") fails it.
    @Test func noLifecycleErrorsFailsOnAnIllegalSequence() throws {
        let trace = try trace("illegal.lifetrace", Self.launch + [("UISceneDidEnterBackgroundNotification", "S1")])
        #expect(!trace.errors.isEmpty)
        withKnownIssue {
            trace.expectNoLifecycleErrors()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("error LT003")
        }
    }

    /// `XCTAssertGreaterThan(trace.time.active, 0)`: an app that never became active fails it. (The recipe does not
    /// assert `time.background > 0`: the time from the process's exec to its launch counts as background, so a run
    /// that never left the foreground passes that too, as this shows; the count of background entries below is
    /// what shows the trips.)
    @Test func activeTimeFailsWhenTheAppNeverBecameActive() throws {
        let neverActive = try trace("never-active.lifetrace", [("UIApplicationDidFinishLaunchingNotification", nil)])
        #expect(neverActive.time.active == 0)
        let foreground = try trace("foreground.lifetrace", Self.launch)
        #expect(foreground.time.active > 0)
        #expect(foreground.time.background > 0)  // before the launch: not evidence of a trip
        #expect(foreground.events.filter { $0.kind == .sceneDidEnterBackground }.isEmpty)
    }

    /// `XCTAssertEqual(... .sceneDidEnterBackground ... .count, 2)`: a run that went to the background once fails it.
    @Test func backgroundCountFailsWhenATripIsMissing() throws {
        let once = try trace("once.lifetrace", Self.launch + Self.toBackground + Self.toForeground)
        #expect(once.events.filter { $0.kind == .sceneDidEnterBackground }.count == 1)
    }

    /// Handler durations. With the capture on (the recipe's recorder), events carry no `dur`: `handlerDurations` is
    /// empty, so `allSatisfy` over it holds whatever the handlers took, and the recipe's `XCTAssertFalse(isEmpty)`
    /// fails: that is what makes a duration assertion able to fail. With measured callbacks there are durations,
    /// and a bound they exceed fails.
    @Test func durationAssertionsFailWithoutMeasurementsAndOverTheirBound() throws {
        let captured = try trace("captured.lifetrace", Self.recipeRun)
        let none = captured.handlerDurations(of: .sceneDidEnterBackground)
        #expect(none.isEmpty)
        #expect(none.allSatisfy { $0.dur < 0 })  // vacuous: why the recipe asserts they exist first
        let measured = try trace("measured.lifetrace", Self.launch + Self.toBackground, measure: true)
        let durations = measured.handlerDurations(of: .sceneDidEnterBackground)
        #expect(!durations.isEmpty)
        // The measured handler sleeps 2 ms: a 1 ms bound fails, a 1 s bound holds.
        #expect(!durations.allSatisfy { $0.dur < 1_000_000 })
        #expect(durations.allSatisfy { $0.dur < 1_000_000_000 })
    }

    /// `trace.findings(of: .taskLeaked)`: a background task begun and never ended, the app seen alive in the
    /// background past the task's budget (here 10 ms, so that the test need not wait 30 s), is there; the same run
    /// ended well within the default 30 s is how the run ended, not a leak; none in a clean run.
    @Test func findingsOfARuleFailOnALeakedTask() throws {
        var tenMilliseconds = AnalysisConfiguration.defaults
        tenMilliseconds.budgets["backgroundTask"] = 10_000_000
        func run(_ name: String, aliveFor nanoseconds: UInt64, budgets configuration: AnalysisConfiguration) throws
            -> LifecycleTrace
        {
            let center = NotificationCenter()
            let url = URL(fileURLWithPath: directory.file(name))
            let recorder = try Recorder(file: url, app: "com.example.app", sceneManifest: true, lifecycle: .uikit)
            try recorder.captureLifecycle(from: center)
            for (name, scene) in Self.launch { center.post(name: Notification.Name(name), object: scene) }
            _ = recorder.beginTask(name: "upload")
            for (name, scene) in Self.toBackground { center.post(name: Notification.Name(name), object: scene) }
            let since = DispatchTime.now().uptimeNanoseconds
            while DispatchTime.now().uptimeNanoseconds - since < nanoseconds { usleep(1_000) }
            recorder.mark("still-running")
            try recorder.close()
            return try LifecycleTrace(contentsOf: url, configuration: configuration)
        }
        #expect(
            try run("leak.lifetrace", aliveFor: 50_000_000, budgets: tenMilliseconds).findings(of: .taskLeaked).count
                == 1)
        #expect(try run("young.lifetrace", aliveFor: 0, budgets: .defaults).findings(of: .taskLeaked).isEmpty)
        #expect(try trace("clean.lifetrace", Self.recipeRun).findings(of: .taskLeaked).isEmpty)
    }
}
