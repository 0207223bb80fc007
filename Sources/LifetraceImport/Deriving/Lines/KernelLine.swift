/// The kernel's jetsam lines: `memorystatus: killing_specific_process pid 812 [MyApp] (per-process-limit 100)
/// 123456KB - memorystatus_available_pages: 1234` (the format string of xnu's `kern_memorystatus.c`).
enum KernelLine {
    /// A jetsam kill: the pid, the process name, and the cause (`per-process-limit`, `vm-pageshortage`,
    /// `zone-map-exhaustion`, ...; `nil` when the line gives none).
    static func jetsam(_ message: String) -> (pid: Int64, name: Substring, cause: Substring?)? {
        guard let marker = UTF8Search.range(of: "memorystatus: killing", in: message),
            let pidMarker = UTF8Search.range(of: " pid ", in: message, from: marker.upperBound),
            let pid = UTF8Search.integer(message, at: pidMarker.upperBound)
        else { return nil }
        let rest = message[pidMarker.upperBound...]
        guard let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") else { return nil }
        let name = rest[rest.index(after: open)..<close]
        var cause: Substring?
        let after = rest[rest.index(after: close)...].drop { $0 == " " }
        if after.hasPrefix("(") {
            let word = after.dropFirst().prefix { $0 != " " && $0 != ")" }
            if !word.isEmpty { cause = word }
        }
        return (pid, name, cause)
    }

    /// The exit reason of a jetsam kill: `jetsam-CAUSE`, or `jetsam`.
    static func reason(cause: Substring?) -> String {
        cause.map { "jetsam-" + $0 } ?? "jetsam"
    }
}
