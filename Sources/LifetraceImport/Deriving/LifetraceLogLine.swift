import LifetraceCore

/// The line an app logs itself, one `Logger` call per callback, which lifetrace takes exactly:
/// `lifetrace ev=scene.didBecomeActive scene=ABC dur=1.2ms`, with any of the fields `scene`, `dur` (a
/// duration: `850ns`, `12.3us`, `1.2ms`, `5s`), `task`, `name`, `phase`, `reason`, `pid`; values with spaces
/// in double quotes (`name="Finish Network Tasks"`).
enum LifetraceLogLine {
    /// The event `message` states, or `nil` if it is no `lifetrace` line or does not parse.
    ///
    /// Only the message's first line is read: the lines that continue it are what the capture printed next
    /// (the app's `print` output in Xcode's console, the prose around a paste), not part of the app's line.
    static func parse(_ message: String) -> LifecycleEvent? {
        let line = message.prefix { $0 != "\n" && $0 != "\r" }
        guard line.hasPrefix("lifetrace ") else { return nil }
        var fields: [String: String] = [:]
        var rest = line.dropFirst("lifetrace ".count)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else { return nil }
                value = rest[..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                value = rest.prefix { $0 != " " }
                rest = rest.dropFirst(value.count)
            }
            guard fields[key] == nil else { return nil }
            fields[key] = String(value)
        }
        guard let name = fields.removeValue(forKey: "ev"), let (kind, label) = LifecycleEvent.parseName(name) else {
            return nil
        }
        var event = LifecycleEvent(t: 0, kind: kind, label: label)
        for (key, value) in fields {
            guard let field = EventFields(name: key) else { return nil }
            switch field {
            case .scene: event.scene = value
            case .dur:
                guard let ns = Nanoseconds.parse(value) else { return nil }
                event.dur = ns
            case .task:
                guard let task = Int64(value) else { return nil }
                event.task = task
            case .name: event.name = value
            case .phase:
                guard let phase = ScenePhase(name: value) else { return nil }
                event.phase = phase
            case .reason: event.reason = value
            case .pid:
                guard let pid = Int64(value) else { return nil }
                event.pid = pid
            default: return nil
            }
        }
        return event.problem == nil ? event : nil
    }
}
