import LifetraceCore

/// UIKit's deactivation reasons (`Schemas/oslog-mapping.md`, *Deactivation reasons*): the app is active
/// exactly when none is left.
extension LifecycleStateMachine {
    /// Derives what a deactivation-reason line says (``DeactivationLine``): the state the new mask implies.
    mutating func deactivation(_ line: DeactivationLine, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        let (old, new) = (line.old, line.new)
        if line.isLaunch {
            // UIKit's launch: a new process if this one had been seen in a UI state already.
            if mask != nil { startProcess(entry, reason: "unknown", pid: entry.pid ?? appPID, into: &events) }
            launchShown = true
            launching = true
            if nextTaskID == nil { nextTaskID = 1 }
        }
        if mask == nil, old == 0, ui == .inactive, !launchShown {
            // The capture begins mid-session with the app active: a first line from no reasons that is not
            // UIKit's launch line (reason 10, handled above). State it once, so what follows is ordered.
            add(.appDidBecomeActive, entry, attributes: [Self.stateAtCaptureStart], into: &events)
            ui = .active
        }
        let background: Int64 = 1 << DeactivationLine.backgroundReason
        if mask == nil, old & background != 0, ui == .inactive, !launchShown {
            // The capture begins with the app in the background.
            add(.appDidEnterBackground, entry, attributes: [Self.stateAtCaptureStart], into: &events)
            ui = .background
        }
        if let known = mask, old != known, !launching {
            // The mask UIKit had is not the one its last line left: the capture lost the lines between.
            reconcile(to: old, entry, into: &events)
        }
        mask = new
        if line.reason == DeactivationLine.backgroundReason, !launching || ui == .background {
            if new & background != 0, ui != .background {
                if ui == .active { add(.appWillResignActive, entry, into: &events) }
                add(.appDidEnterBackground, entry, into: &events)
                ui = .background
            } else if new & background == 0, ui == .background {
                add(.appWillEnterForeground, entry, into: &events)
                ui = .inactive
            }
        }
        if old != 0, new == 0 {
            // Active exactly when no reason is left.
            if ui == .background { add(.appWillEnterForeground, entry, into: &events) }
            if ui != .active { add(.appDidBecomeActive, entry, into: &events) }
            ui = .active
            launching = false
        } else if old == 0, new != 0, ui == .active {
            add(.appWillResignActive, entry, into: &events)
            ui = .inactive
        }
    }

    /// Brings the app's state to what the deactivation mask `old` says, where the capture lost the lines that
    /// changed it (a device's relay drops lines under load): each transition is derived at `entry`, the first
    /// line that shows it happened, marked `lost_from_capture`.
    private mutating func reconcile(to old: Int64, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        let lost = [Self.lostFromCapture]
        if old & (1 << DeactivationLine.backgroundReason) != 0 {
            guard ui != .background else { return }
            if ui == .active { add(.appWillResignActive, entry, attributes: lost, into: &events) }
            add(.appDidEnterBackground, entry, attributes: lost, into: &events)
            ui = .background
            return
        }
        if ui == .background {
            add(.appWillEnterForeground, entry, attributes: lost, into: &events)
            ui = .inactive
        }
        if old == 0, ui != .active {
            add(.appDidBecomeActive, entry, attributes: lost, into: &events)
            ui = .active
        } else if old != 0, ui == .active {
            add(.appWillResignActive, entry, attributes: lost, into: &events)
            ui = .inactive
        }
    }
}
