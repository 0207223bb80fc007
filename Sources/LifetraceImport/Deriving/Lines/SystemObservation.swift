import Foundation

/// What a line of a system process (SpringBoard, runningboardd, assertiond, launchd, the kernel) says about the
/// selected app's process: each source's parser (``SpringBoardLine``, ``RunningBoardLine``, ``AssertiondLine``,
/// ``LaunchdLine``, ``KernelLine``) reads its lines into these, and ``LifecycleStateMachine`` consumes them.
struct SystemObservation: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The system starts a process of the app and says why: SpringBoard's `Bootstrapping app<ID> with
        /// intent ...` (a new process even when one seemed to run).
        case bootstrapping(reason: String, foreground: Bool)
        /// The system will start a process of the app, for a reason (SpringBoard's `Executing
        /// suspended-activation immediately: OpenApplication(ID)ForRequester(locationd.N)`): no process yet.
        case launchRequested(reason: String, foreground: Bool)
        /// A job for the app was started (runningboardd's `Creating and launching job`, assertiond's `Submitted
        /// job`, SpringBoard's `Bootstrap complete`): the process starts, unless this launch was announced already.
        case jobStarted
        /// The system names the process (`[app<ID(...)>:PID]`), and nothing more.
        case named
        /// The scene's lifecycle state as FrontBoard sets it.
        case scene(foreground: Bool)
        /// runningboardd suspends (`Suspending task.`, `running-suspended`) or resumes the process.
        case taskState(suspended: Bool)
        /// runningboardd's `Resuming task.`: the process runs again, so it had been suspended.
        case resumed
        /// runningboardd's state `running-active (role: UserInteractive...)` for a macOS app (`application.ID.N.N`).
        case activeRole(String)
        /// The process ended, and how: a signal (`SIGKILL`), `exit-code-N`, `terminated`, `jetsam-CAUSE`.
        case exited(reason: String)
        /// SpringBoard's launch watchdog killed the process (pid in ``pid``), which may have logged nothing: it
        /// was being launched into the foreground (`true`), the background (`false`), or the line does not say.
        case watchdogKilled(foreground: Bool?)
        /// A line that starts like one of these but does not parse.
        case notUnderstood
    }

    var kind: Kind
    /// The pid the line names, if it names one.
    var pid: Int64?

    init(_ kind: Kind, pid: Int64? = nil) {
        self.kind = kind
        self.pid = pid
    }

    /// The name of signal `number` (the numbers every Apple platform uses).
    static func signalName(_ number: Int64) -> String {
        switch number {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 3: "SIGQUIT"
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGBUS"
        case 11: "SIGSEGV"
        case 13: "SIGPIPE"
        case 15: "SIGTERM"
        default: "signal-\(number)"
        }
    }
}

/// How the system lines name an app: `app<ID(UUID)>` / `app<ID>` on iOS, `application.ID.N.N` on macOS.
enum AppIdentity {
    /// Whether a runningboardd or SpringBoard identity is `bundle`'s.
    static func matches(_ identity: Substring, bundle: String) -> Bool {
        identity == bundle || (identity.hasPrefix("application.") && identity.dropFirst(12).hasPrefix(bundle + "."))
    }

    /// The pid in the name `[app<ID(UUID)>:PID]` / `[app<ID>:PID]` of `bundle`'s process.
    static func pid(in message: String, bundle: String) -> Int64? {
        // Byte searches: every runningboardd line passes here.
        let utf8 = message.utf8
        var from = utf8.startIndex
        while let marker = UTF8Search.range(of: "[app<", in: message, from: from) {
            from = marker.upperBound
            guard utf8[marker.upperBound...].starts(with: bundle.utf8) else { continue }
            let after = utf8.index(marker.upperBound, offsetBy: bundle.utf8.count)
            guard after < utf8.endIndex, utf8[after] == UInt8(ascii: "(") || utf8[after] == UInt8(ascii: ">") else {
                continue
            }
            guard let end = UTF8Search.range(of: ">:", in: message, from: after) else { return nil }
            return UTF8Search.integer(message, at: end.upperBound)
        }
        return nil
    }

    /// Whether `message` names the process `pid` (`...>:PID]`), and where the name ends.
    static func namesPID(_ message: String, _ pid: Int64) -> String.Index? {
        let utf8 = message.utf8
        var from = utf8.startIndex
        while let colon = UTF8Search.range(of: ">:", in: message, from: from) {
            from = colon.upperBound
            guard UTF8Search.integer(message, at: colon.upperBound) == pid else { continue }
            let close = UTF8Search.prefix(message, from: colon.upperBound) { $0 < 0x30 || $0 > 0x39 }.endIndex
            if close < utf8.endIndex, utf8[close] == UInt8(ascii: "]") { return colon.lowerBound }
        }
        return nil
    }
}
