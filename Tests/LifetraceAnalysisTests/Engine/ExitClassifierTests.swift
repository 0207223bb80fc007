@testable import LifetraceAnalysis
import Testing

/// Each way a process can end, and which fact wins when several hold.
@Suite struct ExitClassifierTests {
    typealias Facts = ExitClassifier.Facts

    @Test(arguments: [
        (Facts(terminated: true, openTask: true), ProcessEnd.cleanTerminate),
        // A capture cut with a task open: not a kill.
        (Facts(derived: true, openTask: true, ui: .background), .traceEnded),
        (Facts(derived: true, exitObserved: true, openTask: true), .killedWithBackgroundTask),
        (Facts(openTask: true, handlerOverrun: true), .killedWithBackgroundTask),
        (Facts(handlerOverrun: true), .killedInBackgroundHandler),
        (Facts(suspended: true, ui: .background), .traceEnded),
        (Facts(nextLaunch: true, suspended: true, ui: .background), .terminatedWhileSuspended),
        (Facts(exitObserved: true, ui: .active), .endedInForeground),
        (Facts(nextLaunch: true, ui: .inactive), .endedInForeground),
        (Facts(exitObserved: true, ui: .background), .endedInBackground),
        (Facts(exitObserved: true, ui: .none), .endedInBackground),
    ])
    func theFirstApplyingRuleDecides(facts: Facts, end: ProcessEnd) {
        #expect(ExitClassifier.classify(facts).end == end)
    }

    @Test func anExpiredTaskIsNamedInTheBasis() {
        #expect(ExitClassifier.classify(Facts(nextLaunch: true, openTask: true, expiredTask: true)).basis
                == "a background task had expired without being ended")
        #expect(ExitClassifier.classify(Facts(nextLaunch: true, openTask: true)).basis == "a background task was still open")
    }
}
