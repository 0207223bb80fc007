import Foundation
import LifetraceCore

/// The system processes whose lines say something about the app's process, each read by its parser in
/// `Lines/`.
enum SystemSource: Sendable {
    case springBoard, runningBoard, assertiond, launchd, kernel, reportCrash

    init?(process: String) {
        switch process {
        case "SpringBoard": self = .springBoard
        case "runningboardd": self = .runningBoard
        case "assertiond": self = .assertiond
        case "launchd", "com.apple.xpc.launchd": self = .launchd
        case "kernel": self = .kernel
        case "ReportCrash": self = .reportCrash
        default: return nil
        }
    }
}

/// The system's lines about the app's process (`Schemas/oslog-mapping.md`, *Other processes*): its start, its
/// pid, its scene, its suspension and its end.
extension LifecycleStateMachine {
    /// What a system line says about the selected app's process, if anything.
    func observe(_ entry: LogLine) -> SystemObservation? {
        guard let source = SystemSource(process: entry.process) else { return nil }
        if source == .kernel {
            guard let kill = KernelLine.jetsam(entry.message) else { return nil }
            let mine: Bool
            if let pid = appPID {
                mine = kill.pid == pid
            } else if let process = selection.process {
                // The kernel keeps the first 32 bytes of a name (`p_name`).
                mine = kill.name == process || (kill.name.utf8.count >= 16 && process.hasPrefix(kill.name))
            } else {
                mine = false
            }
            return mine ? SystemObservation(.exited(reason: KernelLine.reason(cause: kill.cause)), pid: kill.pid) : nil
        }
        if source == .reportCrash {
            // A crash report for the app's pid (or, while its pid is unknown, its name): the process crashed.
            guard let report = ReportCrashLine.crashed(entry.message) else { return nil }
            let mine = appPID.map { report.pid == $0 } ?? (selection.process.map { report.name == $0 } ?? false)
            return mine ? SystemObservation(.exited(reason: "crash-report"), pid: report.pid) : nil
        }
        guard let bundle = selection.bundleID else { return nil }
        switch source {
        case .springBoard: return SpringBoardLine.observe(entry.message, bundle: bundle)
        case .runningBoard: return RunningBoardLine.observe(entry.message, bundle: bundle)
        case .assertiond: return AssertiondLine.observe(entry.message, bundle: bundle)
        case .launchd: return LaunchdLine.observe(entry, bundle: bundle)
        case .kernel, .reportCrash: return nil
        }
    }

    /// Derives what a system line said.
    mutating func apply(_ entry: LogLine, into events: inout [LifecycleEvent]) {
        if selection.bundleID == nil, entry.process == "SpringBoard" || entry.process == "runningboardd" {
            learnBundle(from: entry.message)
        }
        guard let observation = observe(entry) else { return }
        switch observation.kind {
        case let .bootstrapping(reason, foreground):
            // SpringBoard starts a process, and says why. A process already running ended unseen.
            startProcess(entry, reason: reason, pid: nil, foreground: foreground ? true : nil, into: &events)
            launchShown = true
            launching = true
            nextTaskID = 1
            launchAnnounced = true
        case let .launchRequested(reason, foreground):
            requestedLaunch = (reason, foreground)
        case .jobStarted:
            // The job of a launch SpringBoard announced is that launch; otherwise it starts a process.
            guard !launchAnnounced else { return }
            let request = requestedLaunch
            requestedLaunch = nil
            startProcess(
                entry, reason: request?.reason ?? "unknown", pid: nil, foreground: request?.foreground,
                into: &events)
            launchShown = true
            launching = request?.foreground != false
            nextTaskID = 1
            launchAnnounced = true
        case .named:
            notePID(observation.pid, entry, into: &events)
        case let .scene(foreground):
            if foreground {
                if ui == .background {
                    add(.appWillEnterForeground, entry, into: &events)
                    ui = .inactive
                }
            } else {
                if ui == .active { add(.appWillResignActive, entry, into: &events) }
                if ui != .background { add(.appDidEnterBackground, entry, into: &events) }
                ui = .background
            }
        case let .taskState(isSuspended):
            notePID(observation.pid, entry, into: &events)
            guard launched else { return }
            setSuspended(isSuspended, entry, into: &events)
        case .resumed:
            notePID(observation.pid, entry, into: &events)
            guard launched else { return }
            if !suspended, !launchAnnounced, !launching, !resumedSinceLine {
                // A resume proves a suspension before it, which the capture lost (or which began before it): its
                // start is unknown, so it is placed here, inferred. (Not the launch's own resume, nor a resume
                // repeated with no line of the app between.)
                add(.processSuspend, entry, attributes: [Self.suspensionStartUnknown], into: &events)
                suspended = true
            }
            resumedSinceLine = true
            setSuspended(false, entry, into: &events)
        case let .activeRole(role):
            guard launched else { return }
            setSuspended(false, entry, into: &events)
            // A macOS app logs no UIKit deactivation reasons; the role runningboardd gives it is what says it is
            // in front of the user.
            if mask == nil, ui != .active {
                add(
                    .appDidBecomeActive, entry, attributes: [Attribute(Attribute.Key.processRole, .string(role))],
                    into: &events)
                ui = .active
                launching = false
            }
        case let .exited(reason):
            guard launched else { return }
            // The end of a process before this one (a new pid is named already) ends nothing.
            if let pid = observation.pid, let known = appPID, pid != known { return }
            endProcess(entry, reason: reason, pid: observation.pid ?? appPID, into: &events)
        case let .watchdogKilled(foreground):
            // The watchdog kills a process that hung while launching, often before its first line: the pid it
            // names, when no line showed it, is a process that starts here and ends at once.
            if let pid = observation.pid, !launched || (appPID != nil && appPID != pid) {
                if afterExit, pid == endedPID { return }
                if isEarlier(pid) { return noteLate(entry) }
                startProcess(entry, reason: "unknown", pid: pid, foreground: foreground, into: &events)
            }
            endProcess(entry, reason: "watchdog", pid: observation.pid ?? appPID, into: &events)
        case .notUnderstood:
            notUnderstood(entry)
        }
    }

    /// runningboardd names the app's process with its pid: a new pid is a new process; the first names the
    /// running one. The pid of a process whose end was logged names no new one.
    mutating func notePID(_ pid: Int64?, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        guard let pid else { return }
        if !launched || (appPID != nil && appPID != pid) {
            if afterExit, pid == endedPID { return }
            if isEarlier(pid) { return noteLate(entry) }
            startProcess(entry, reason: "unknown", pid: pid, into: &events)
        } else if appPID == nil {
            appPID = pid
        }
    }

    /// runningboardd suspended (or resumed) the process: `process.suspend` / `process.resume` on a change.
    mutating func setSuspended(_ isSuspended: Bool, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        if isSuspended, !suspended { add(.processSuspend, entry, into: &events) }
        if !isSuspended, suspended { add(.processResume, entry, into: &events) }
        suspended = isSuspended
    }

    /// The app's process ended, as the system or the app logged it.
    mutating func endProcess(_ entry: LogLine, reason: String, pid: Int64?, into events: inout [LifecycleEvent]) {
        if scheduled.isHolding {
            scheduled.hold(events)
            events = releaseScheduledHold()
        }
        add(.processExit, entry, into: &events) { $0.reason = reason }
        launched = false
        appPID = nil
        reset()
        afterExit = true
        endedPID = pid
        if let pid { rememberEarlier(pid) }
    }

    /// Learns the app's bundle identifier from a system line naming its process: `[app<BUNDLE(UUID)>:PID]`.
    mutating func learnBundle(from message: String) {
        guard let pid = appPID, let end = AppIdentity.namesPID(message, pid),
            let start = message.range(of: "app<", options: .backwards, range: message.startIndex..<end)
        else { return }
        let identity = message[start.upperBound..<end].prefix { $0 != "(" }
        if !identity.isEmpty { selection.bundleID = String(identity) }
    }
}
