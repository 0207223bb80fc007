/// runningboardd's lines about the app's process (`Schemas/oslog-mapping.md`, *Other processes*): it names
/// the process `[app<ID(UUID)>:PID]` in most of them.
enum RunningBoardLine {
    /// What `message` says about `bundle`'s process, if anything.
    static func observe(_ message: String, bundle: String) -> SystemObservation? {
        // `Removing assertions for terminated process: [app<ID(...)>:PID]` (`application.ID.N.N` on macOS).
        if let marker = UTF8Search.range(of: "Removing assertions for terminated process: [app<", in: message) {
            let identity = message[marker.upperBound...].prefix { $0 != "(" && $0 != ">" }
            guard AppIdentity.matches(identity, bundle: bundle) else { return nil }
            return SystemObservation(.exited(reason: "terminated"), pid: AppIdentity.pid(in: message, bundle: bundle))
        }
        // `Creating and launching job for: app<ID(UUID)>`: the process is being started.
        if let marker = UTF8Search.range(of: "Creating and launching job for: app<", in: message) {
            let identity = message[marker.upperBound...].prefix { $0 != "(" && $0 != ">" }
            return AppIdentity.matches(identity, bundle: bundle) ? SystemObservation(.jobStarted) : nil
        }
        // `Calculated state for app<ID(UUID)>: running-suspended (role: None) (endowments: ...)`
        if let marker = UTF8Search.range(of: "Calculated state for app<", in: message) {
            let identity = message[marker.upperBound...].prefix { $0 != "(" && $0 != ">" }
            guard AppIdentity.matches(identity, bundle: bundle) else { return nil }
            return calculatedState(message, identity: identity)
        }
        guard let pid = AppIdentity.pid(in: message, bundle: bundle) else { return nil }
        // `[app<ID(UUID)>:PID] Suspending task.` / `... Resuming task.`: the process is stopped or let run.
        if message.hasSuffix("] Suspending task.") { return SystemObservation(.taskState(suspended: true), pid: pid) }
        if message.hasSuffix("] Resuming task.") { return SystemObservation(.resumed, pid: pid) }
        // `[app<ID(UUID)>:PID] termination reported by launchd (2, 6, 6)`: the domain (2: a signal) and code.
        if let marker = UTF8Search.range(of: "] termination reported by launchd (", in: message) {
            let numbers = message[marker.upperBound...].prefix { $0 != ")" }.split(separator: ",")
                .map { Int64($0.trimmingPrefix(" ")) }
            if numbers.count >= 2, numbers[0] == 2, let code = numbers[1] {
                return SystemObservation(.exited(reason: SystemObservation.signalName(code)), pid: pid)
            }
            return SystemObservation(.exited(reason: "terminated"), pid: pid)
        }
        return SystemObservation(.named, pid: pid)
    }

    /// `running-suspended ...` is a suspension, any other `running-...` a running process; on macOS, where no
    /// UIKit lines say it, `running-active (role: UserInteractive...)` is the app in front of the user.
    private static func calculatedState(_ message: String, identity: Substring) -> SystemObservation? {
        guard let colon = UTF8Search.range(of: ">: ", in: message) else { return nil }
        let state = message[colon.upperBound...].prefix { $0 != " " }
        if state.hasPrefix("running-suspended") { return SystemObservation(.taskState(suspended: true)) }
        if state.hasPrefix("running") {
            if identity.hasPrefix("application."), state.hasPrefix("running-active"),
                let role = UTF8Search.range(of: "(role: UserInteractive", in: message)
            {
                let name = UTF8Search.prefix(message, from: message.utf8.index(role.lowerBound, offsetBy: 7)) {
                    $0 == UInt8(ascii: ")")
                }
                return SystemObservation(.activeRole(String(name)))
            }
            return SystemObservation(.taskState(suspended: false))
        }
        return state.isEmpty ? SystemObservation(.notUnderstood) : nil
    }
}
