// The rules checked in code rather than by a model: each on the kinds the catalogue declares for it, by the check
// it names (CodeRuleTriggers), or on the process's state (after applicationWillTerminate, while suspended).

import LifetraceCore
import LifetraceFormat

extension AnalysisCore {
    /// What may follow `applicationWillTerminate`: the system's and the recorder's own events.
    private static let allowedAfterTerminate: Set<EventKind> = [
        .processExit, .processLaunch, .processSuspend, .processResume, .heartbeat, .recorderDropped, .handlerReturn,
    ]

    /// What the process model judges after `applicationWillTerminate` itself (LT013): a second one, and a
    /// snapshot, which cannot follow it in a process whose recording began before.
    private static let judgedAfterTerminateByModel: Set<EventKind> = [.appWillTerminate, .appState, .sceneState]

    /// Reads an event for the rules checked in code and what the process's books need of the same kinds; called
    /// for the kinds ``CodeRuleTriggers/read`` marks, and for any event once the process's state calls for it.
    mutating func namedRules(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        let tag = Int(event.tag)
        // A callback of a kind with a handler budget written while its handler ran (attributes, no `dur`): kept
        // until its return.
        if event.fields.contains(.attrs), !event.fields.contains(.dur), unfinishedKinds[tag] {
            process.noteUnfinished(event, of: block)
        }
        switch event.kind {
        case .handlerReturn:
            handlerReturned(event, of: block)
        case .appState, .sceneState:
            process.state.launchMeasured = false
        case .recorderDropped where !process.state.unfinished.isEmpty:
            process.eventsLost(event)
        case .appWillTerminate:
            process.state.willTerminateEnd = event.end
        default:
            break
        }
        let checks = triggers.checks[tag]
        for check in checks { check(&self, event, row, block) }
        if let end = process.state.willTerminateEnd, event.t > end,
            !Self.judgedAfterTerminateByModel.contains(event.kind),
            !Self.allowedAfterTerminate.contains(event.kind), !process.state.reportedAfterTerminate
        {
            process.state.reportedAfterTerminate = true
            report(
                .eventAfterTerminate, "\(block.eventName(at: row)) after applicationWillTerminate returned",
                scene: block.string(event.scene))
        }
        if workWhileSuspendedChecked, suspension.suspendedSince != nil, layers[event.tag] != .process {
            report(
                .workWhileSuspended, "\(block.eventName(at: row)) while the process is suspended",
                scene: block.string(event.scene))
        }
    }

    // MARK: - The checks the catalogue names (`check` in Schemas/rules.json), on the kinds it declares for each,
    // called only where the rule's scope admits the trace

    /// LT020: an app-delegate UI callback in a UIKit app with a scene manifest, captured from callbacks.
    mutating func appDelegateUIWithManifest(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        report(
            .appDelegateUIWithManifest,
            "\(block.eventName(at: row)) fired although the app has a scene manifest: UIKit never calls it there",
            scene: nil)
    }

    /// LT012: `applicationWillTerminate` while a scene is in the foreground (UIKit, which terminates an app from
    /// the background; an AppKit app quits while active).
    mutating func terminateFromForeground(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        let ui = engine.uiState
        if ui == .active || ui == .inactive {
            report(
                .terminateFromForeground,
                "applicationWillTerminate while a scene is in the foreground (\(ui.name))",
                scene: nil)
        }
    }

    /// LT080: a save (`custom.save`) in `applicationWillTerminate` after entering the background without one.
    mutating func saveOnlyInTerminate(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        guard block.extras(of: event)?.label == saveLabel else { return }
        if let end = process.state.willTerminateEnd, event.t <= end, process.state.backgroundSaveMissing {
            report(
                .saveOnlyInTerminate,
                "state saved in applicationWillTerminate, after entering the background without saving",
                scene: nil)
        }
        process.state.backgroundSaveMissing = false
    }

    /// Judges SwiftUI's App-level phase against its scenes' phases (LT030), in the order SwiftUI does not
    /// document (``AppPhaseCheck``): an App-level `event` (no scene) is held when its scenes contradict it, and a
    /// scene's (`event` with a scene, after the models moved it) may settle the one held.
    mutating func appPhaseAgainstScenes(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        if event.hasScene {
            if appPhase.isPending { appPhase.scenesChanged(engine.sceneCensus(readingEventsOf: .swiftuiScenePhase)) }
        } else if let phase = event.phase {
            appPhase.appPhase(
                phase, index: index, t: event.t, census: engine.sceneCensus(readingEventsOf: .swiftuiScenePhase))
        }
    }

    /// Reports the App-level phase held (LT030) as proven, its time over: at `event` (a new App-level phase, the
    /// process's start or end), or at the trace's end (`event` nil). Called only while one is held.
    @inline(never)
    mutating func settleAppPhase(at event: EventRecord?) {
        if let event {
            guard
                event.kind == .processLaunch || event.kind == .processExit
                    || event.kind == .swiftuiScenePhase && !event.hasScene
            else { return }
        }
        guard let held = appPhase.settle() else { return }
        report(
            .appPhaseAgainstScenes,
            "the App-level phase became \(held.phase.name) at event #\(held.index) (t=\(Nanoseconds.seconds(held.t))) while \(held.reason), "
                + "and no scene's phase supported it before \(event == nil ? "the trace's end" : "this event")",
            scene: nil)
    }

    /// Checks an application notification of a scene-based app against its scenes (LT021): UIKit's
    /// `applicationState` is the state of the most active scene, so the application moves only with a scene
    /// that moves the same way. A notification is judged only where no order of UIKit's posting could explain
    /// it: the application becoming active or resigning while every scene is in the background, entering the
    /// foreground or the background while a scene is active. (No scene known: nothing to judge.)
    mutating func appNotificationAgainstScenes(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        let scenes = engine.uiState
        let contradicts: Bool
        switch event.kind {
        case .appDidBecomeActive, .appWillResignActive: contradicts = scenes == .background
        case .appWillEnterForeground, .appDidEnterBackground: contradicts = scenes == .active
        default: contradicts = false
        }
        guard contradicts else { return }
        let state = scenes == .active ? "a scene is active" : "every scene is in the background"
        report(
            .appNotificationAgainstScenes,
            "\(block.eventName(at: row)) posted while \(state): UIKit's application state is that of its most active scene",
            scene: nil)
    }

    /// The string index of `save` in `block` (the label `custom.save` events carry); below
    /// ``EventRecord/absent`` when the block has none. Once per block: out of the loop.
    @inline(never)
    static func saveLabel(of block: borrowing EventBlock) -> EventRecord.StringIndex {
        block.strings.firstIndex { $0.utf8.count == 4 && $0 == "save" }.map(Int32.init) ?? EventRecord.absent - 1
    }
}
