import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// Each way a process can end, and which fact wins when several hold.
@Suite struct ExitClassifierTests {
    typealias Facts = ExitClassifier.Facts

    @Test(arguments: [
        (Facts(terminated: true, openTask: true), ProcessEnd.cleanTerminate),
        // A capture cut with a task open: not a kill.
        (Facts(derived: true, openTask: true, ui: .background), .traceEnded),
        (Facts(derived: true, exitObserved: true, openTask: true), .killedWithBackgroundTask),
        (Facts(nextLaunch: true, openTask: true, handlerOverrun: true), .killedWithBackgroundTask),
        (Facts(exitObserved: true, openTask: true), .killedWithBackgroundTask),
        (Facts(nextLaunch: true, handlerOverrun: true), .killedInBackgroundHandler),
        (
            Facts(nextLaunch: true, handlerOverrun: true, overrunUnreturned: true, suspended: true, ui: .background),
            .killedInBackgroundHandler
        ),
        (Facts(suspended: true, ui: .background), .traceEnded),
        // Alive at the trace's end: whatever is open, nothing shows it ended.
        (Facts(openTask: true, expiredTask: true, ui: .background), .traceEnded),
        (Facts(handlerOverrun: true), .traceEnded),
        (Facts(handlerOverrun: true, overrunUnreturned: true, ui: .background), .traceEnded),
        (Facts(nextLaunch: true, suspended: true, ui: .background), .terminatedWhileSuspended),
        // An exit whose reason is a crash or jetsam: that, whatever was open or overran.
        (
            Facts(exitObserved: true, openTask: true, expiredTask: true, exitCause: .crash("SIGSEGV"), ui: .background),
            .crashed
        ),
        (Facts(exitObserved: true, handlerOverrun: true, exitCause: .crash("uncaught-exception")), .crashed),
        (Facts(exitObserved: true, openTask: true, exitCause: .jetsam("jetsam"), suspended: true), .killedByJetsam),
        (Facts(terminated: true, exitObserved: true, exitCause: .crash("SIGABRT")), .cleanTerminate),
        // The process's own exit, as a service's group records it when its run returns or throws.
        (Facts(exitObserved: true, exitCause: .exit, ui: .unattached), .exited),
        (Facts(exitObserved: true, exitCause: .error, ui: .unattached), .exitedWithError),
        (Facts(nextLaunch: true, exitObserved: true, exitCause: .error, ui: .unattached), .exitedWithError),
        // Another process's words for its exit say nothing of how it ended.
        (
            Facts(exitObserved: true, exitCause: ExitClassifier.cause(ofExitReason: "SIGKILL"), ui: .unattached),
            .endedInBackground
        ),
        (Facts(exitObserved: true, ui: .active), .endedInForeground),
        (Facts(nextLaunch: true, ui: .inactive), .endedInForeground),
        (Facts(exitObserved: true, ui: .background), .endedInBackground),
        (Facts(exitObserved: true, ui: .unattached), .endedInBackground),
    ])
    func theFirstApplyingRuleDecides(facts: Facts, end: ProcessEnd) {
        #expect(ExitClassifier.classify(facts).end == end)
    }

    @Test func anUnreturnedHandlerIsNamedInTheBasis() {
        #expect(
            ExitClassifier.classify(Facts(nextLaunch: true, handlerOverrun: true, overrunUnreturned: true)).basis
                == "a didEnterBackground handler written unfinished was still running past its budget at its process's last event, and never returned"
        )
        #expect(
            ExitClassifier.classify(Facts(nextLaunch: true, handlerOverrun: true)).basis
                == "didEnterBackground overran its budget and nothing followed")
    }

    @Test func anExpiredTaskIsNamedInTheBasis() {
        #expect(
            ExitClassifier.classify(Facts(nextLaunch: true, openTask: true, expiredTask: true)).basis
                == "a background task had expired without being ended")
        #expect(
            ExitClassifier.classify(Facts(nextLaunch: true, openTask: true)).basis == "a background task was still open"
        )
    }

    /// The reasons `lifetrace import` derives (Schemas/oslog-mapping.md), and what each says.
    @Test func exitReasonsSayWhatEndedTheProcess() {
        #expect(ExitClassifier.cause(ofExitReason: "uncaught-exception") == .crash("uncaught-exception"))
        #expect(ExitClassifier.cause(ofExitReason: "abort") == .crash("abort"))
        #expect(ExitClassifier.cause(ofExitReason: "SIGSEGV") == .crash("SIGSEGV"))
        #expect(ExitClassifier.cause(ofExitReason: "jetsam") == .jetsam("jetsam"))
        #expect(ExitClassifier.cause(ofExitReason: "jetsam-per-process-limit") == .jetsam("jetsam-per-process-limit"))
        for reason in ["SIGKILL", "SIGTERM", "exit-code-1", "terminated", "signal", "jetsamish", ""] {
            #expect(ExitClassifier.cause(ofExitReason: reason) == nil, "\(reason)")
        }
    }
}
