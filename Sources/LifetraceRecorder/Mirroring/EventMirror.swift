import LifetraceCore

/// Where a recorder also writes each event, as the log line `lifetrace import` reads exactly.
protocol EventMirror: Sendable {
    /// Writes `event`, recorded at `t` nanoseconds since the trace started.
    func mirror(_ event: LifecycleEvent)
}

/// No mirror: what a recorder without one holds.
struct NoMirror: EventMirror {
    func mirror(_ event: LifecycleEvent) {}
}

/// The `lifetrace ev=NAME key=value ...` message for an event (see `Schemas/oslog-mapping.md`, "The app's
/// own lines"): the fields `scene`, `dur`, `task`, `name`, `phase`, `reason` and `pid`. A value with a space
/// is written in double quotes; a double quote inside a value becomes a single one, the one character the
/// line cannot carry. Attributes are not mirrored.
func lifetraceLogMessage(_ event: LifecycleEvent) -> String {
    var message = "lifetrace ev=" + event.eventName
    func field(_ key: StaticString, _ value: String) {
        let clean = value.contains("\"") ? value.replacingAll("\"", with: "'") : value
        message += clean.contains(" ") || clean.isEmpty ? " \(key)=\"\(clean)\"" : " \(key)=\(clean)"
    }
    if let scene = event.scene { field(EventFields.Name.scene, scene) }
    if let dur = event.dur { message += " \(EventFields.Name.dur)=\(dur)ns" }
    if let task = event.task { message += " \(EventFields.Name.task)=\(task)" }
    if let name = event.name { field(EventFields.Name.name, name) }
    if let phase = event.phase { message += " \(EventFields.Name.phase)=\(phase.name)" }
    if let reason = event.reason { field(EventFields.Name.reason, reason) }
    if let pid = event.pid { message += " \(EventFields.Name.pid)=\(pid)" }
    return message
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
