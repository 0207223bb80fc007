import Dispatch
import Foundation
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// What the recorder reads of the system, in the parts that are arithmetic and parsing.
@Suite struct PlatformTests {
    /// `/proc/self/stat`: the command in parentheses may hold spaces and parentheses; field 22 is the start.
    @Test func theProcessStartIsReadFromProcSelfStat() {
        let fields3to21 = (3...21).map(String.init).joined(separator: " ")
        let line = "4242 (my (odd) app) " + fields3to21 + " 98765 23 24\n"
        #expect(ProcessAge.startTicks(procSelfStat: Array(line.utf8)) == 98765)
        #expect(ProcessAge.startTicks(procSelfStat: Array("4242 (short) S 1 2\n".utf8)) == nil)
        #expect(ProcessAge.startTicks(procSelfStat: Array("no parenthesis".utf8)) == nil)
        #expect(
            ProcessAge.clamped(-1) == nil && ProcessAge.clamped(5) == 5 && ProcessAge.clamped(ProcessAge.maximum) == nil
        )
    }

    /// This test process started before the test ran, and not long before.
    @Test func thisProcessHasAnAge() throws {
        #if os(Linux)
        let age = try #require(SystemInterface.processAge())
        #expect(age > 0 && age < 3_600_000_000_000)
        #endif
    }

    /// A recorder's `t = 0` is the process's start: its `process.launch` is there, and the header says when.
    @Test func theTraceStartsAtTheProcessStart() throws {
        let directory = TemporaryDirectory()
        let recorder = try Recorder(file: URL(fileURLWithPath: directory.file("age.lifetrace")))
        recorder.mark("now")
        try recorder.close()
        let (header, events) = try RecorderTraces.read(directory.file("age.lifetrace"))
        #expect(events.first?.kind == .processLaunch && events.first?.t == 0)
        #if os(Linux)
        let start = try #require(header?[.processStart]?.intValue)
        #expect(header?.startUnixNanoseconds == start)
        // The mark came after the test process started, by the process's age then.
        #expect(events[1].t > 0)
        #endif
    }

    /// UIKit's and WatchKit's raw states, and what shows a launch that is over.
    @Test func snapshotsReadTheFrameworksStates() {
        #expect((0...3).map(ApplicationSnapshot.phase(applicationState:)) == [.active, .inactive, .background, nil])
        #expect(
            (-1...2).map(ApplicationSnapshot.phase(sceneActivationState:)) == [nil, .active, .inactive, .background])
        let active = ApplicationSnapshot.uikit(applicationState: 0, scenes: [("A", 0), ("B", -1), ("C", 2)])
        #expect(active.launched && active.application == .active)
        #expect(active.scenes == [.init(id: "A", phase: .active), .init(id: "C", phase: .background)])
        // Inactive with no scene: still launching (didFinishLaunching runs with the app inactive).
        #expect(!ApplicationSnapshot.uikit(applicationState: 1, scenes: []).launched)
        #expect(ApplicationSnapshot.uikit(applicationState: 2, scenes: [("A", 2)]).launched)
        #expect(!ApplicationSnapshot.uikit(applicationState: 2, scenes: [("A", -1)]).launched)
        #expect(ApplicationSnapshot.watchkit(applicationState: 0).launched)
        #expect(!ApplicationSnapshot.watchkit(applicationState: 1).launched)
        #expect(
            ApplicationSnapshot.appkit(isActive: false, isRunning: true)
                == ApplicationSnapshot(application: .inactive, scenes: [], launched: true))
    }

    /// Intervals keep their length whatever the width of `Int` (on arm64_32 `.nanoseconds` holds 2.1 s).
    @Test func timerIntervalsFitAnyInt() {
        #expect(DispatchTimeInterval.of(nanoseconds: 1_500_000) == .nanoseconds(1_500_000))
        #expect(DispatchTimeInterval.of(nanoseconds: 3_000_000_000) == .nanoseconds(3_000_000_000))
        #expect(DispatchTimeInterval.of(nanoseconds: .max) == .nanoseconds(.max))
    }

    /// The notifications each lifecycle observes are its framework's, and each maps to the event its model knows.
    @Test func eachLifecycleObservesItsFrameworksNotifications() {
        #expect(LifecycleNotification.observed(for: nil) == LifecycleNotification.observed(for: .uikit))
        let prefixes: [(TraceHeader.Lifecycle, [String])] = [
            (.uikit, ["UIApplication", "UIScene"]), (.watchkit, ["WKApplication"]), (.appkit, ["NSApplication"]),
            (.appExtension, ["NSExtensionHost"]),
        ]
        for (lifecycle, names) in prefixes {
            let observed = LifecycleNotification.observed(for: lifecycle)
            #expect(observed.last == .thermalStateDidChange)
            #expect(observed.dropLast().allSatisfy { n in names.contains { n.rawValue.hasPrefix($0) } }, "\(lifecycle)")
        }
        // Every notification is observed by some lifecycle.
        let all = Set(TraceHeader.Lifecycle.allCases.flatMap(LifecycleNotification.observed(for:)))
        #expect(all == Set(LifecycleNotification.allCases))
        #expect(
            TraceHeader.Lifecycle.detect(platform: .current, bundlePath: "/x/App.app", extensionPoint: nil)
                == TraceHeader.Lifecycle.current)
    }
}
