import LifetraceCore
import Testing

@testable import LifetraceImport

/// The app's own lines read into observations, one parser each, before any state: the values are the lines'
/// own numbers, as `Schemas/oslog-mapping.md` shows them.
@Suite struct AppObservationTests {
    /// `2080 -> 6176` adds reason 12 (4096): the masks and the reason as printed.
    @Test func aDeactivationLineGivesItsReasonAndMasks() {
        let line =
            "Deactivation reason added: 12; deactivation reasons: 2080 -> 6176; animating application lifecycle event: 1"
        #expect(AppObservation.observe(line) == .deactivation(DeactivationLine(reason: 12, old: 2080, new: 6176)))
        let removed =
            "Deactivation reason removed: 11; deactivation reasons: 2048 -> 0; animating application lifecycle event: 0"
        #expect(DeactivationLine.parse(removed) == DeactivationLine(reason: 11, old: 2048, new: 0))
        // UIKit's launch: reason 10 (1024) added to none.
        let launch =
            "Deactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0"
        #expect(DeactivationLine.parse(launch)?.isLaunch == true)
        #expect(DeactivationLine.isLaunchLine(launch))
        #expect(DeactivationLine.parse(line)?.isLaunch == false)
        // A deactivation line whose masks do not parse is still one, not understood.
        #expect(
            AppObservation.observe("Deactivation reason added: 12; deactivation reasons: x -> 6176")
                == .deactivation(nil))
    }

    /// UIKit's background-task lines: the number shown, or none where the log redacts it; the handler block, as
    /// far as its closing bracket (what tells one block from another).
    @Test func backgroundTaskLinesGiveTheirNumbersNamesAndHandlers() {
        #expect(
            UIKitTaskLine.observe(
                "Will add backgroundTask with taskName: Upload, expirationHandler: <__NSMallocBlock__: 0x107362a60>")
                == .announced(handler: "<__NSMallocBlock__: 0x107362a60"))
        #expect(
            UIKitTaskLine.observe("Will add backgroundTask with taskName: Upload, expirationHandler: (null)")
                == .announced(handler: nil))
        #expect(UIKitTaskLine.observe("Created background task <private>.") == .created(id: nil, name: nil))
        #expect(
            UIKitTaskLine.observe(
                "Created background task <UIBackgroundTaskInfo: 0x2>: taskID = 3, taskName = Upload, creationTime = 1")
                == .created(id: 3, name: "Upload"))
        #expect(
            UIKitTaskLine.observe(
                "Created background task <UIBackgroundTaskInfo: 0x2>: taskID = 4, taskName = <private>, creationTime = 1"
            )
                == .created(id: 4, name: nil))
        #expect(
            UIKitTaskLine.observe("Created background task <UIBackgroundTaskInfo: 0x2>: taskName = Upload")
                == .creationNotUnderstood)
        #expect(UIKitTaskLine.observe("Ending background task with UIBackgroundTaskIdentifier: 7") == .ended(id: 7))
        #expect(
            UIKitTaskLine.observe("Ending background task with UIBackgroundTaskIdentifier: seven") == .endNotUnderstood)
        #expect(
            UIKitTaskLine.observe(
                "Ending task with identifier 7 and description: <x>, _expireHandler: <__NSMallocBlock__: 0x1>")
                == .endedWithHandler(id: 7, handler: "<__NSMallocBlock__: 0x1"))
        #expect(UIKitTaskLine.observe("Loaded a nib") == nil)
    }

    /// Each kind of the app's lines goes to its parser; a line about nothing lifecycle-related to none.
    @Test func eachLineGoesToItsParser() {
        #expect(
            AppObservation.observe(
                "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'x'")
                == .crashed(reason: "uncaught-exception"))
        #expect(
            AppObservation.observe("Marking simulated task complete: <BGAppRefreshTask: com.example.refresh>")
                == .scheduledTask(.completed(kind: .refresh, identifier: "com.example.refresh")))
        #expect(
            AppObservation.observe("Ending background task with UIBackgroundTaskIdentifier: 2")
                == .backgroundTask(.ended(id: 2)))
        #expect(
            AppObservation.observe("lifetrace ev=scene.didBecomeActive scene=S1")
                == .ownEvent(LifecycleEvent(t: 0, kind: .sceneDidBecomeActive, scene: "S1")))
        #expect(AppObservation.observe("lifetrace ev=no.such.event") == .ownEvent(nil))
        #expect(AppObservation.observe("Loaded a nib") == nil)
    }
}
