import LifetraceCore

/// The names an exporter makes from a string an event carries — a custom marker's `custom.<label>`, a task's
/// `background task <name>` — each made once and numbered, so that the events that repeat one (thousands of
/// markers with a dozen labels) neither build its text nor have an encoder hash it again: an encoder keeps what
/// it derives from a numbered name (Perfetto's iid, Chrome's escaped bytes) by its number.
///
/// Bounded whatever the trace: at most ``limit`` names of at most ``byteLimit`` bytes of strings in all; past
/// either, a name is made per event and not numbered, written as before.
struct ExportNameCache {
    /// What a name is made from: the event's kind and the string it carries (`nil`: none).
    private struct Key: Hashable {
        var kind: EventKind
        var part: String?
    }

    /// The most names kept by default, as many as the Perfetto encoder interns
    /// (``PerfettoEncoder/internedLimit``).
    static let defaultLimit = PerfettoEncoder.internedLimit
    /// The most bytes of carried strings kept by default.
    static let defaultByteLimit = 1 << 22

    /// The most names kept.
    let limit: Int
    /// The most bytes of the strings the kept names are made from.
    let byteLimit: Int
    private var names: [Key: ExportName] = [:]
    /// The bytes of the strings the kept names are made from.
    private(set) var bytes = 0

    /// A cache of at most `limit` names made from at most `byteLimit` bytes of strings.
    init(limit: Int = defaultLimit, byteLimit: Int = defaultByteLimit) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// How many names are kept.
    var count: Int { names.count }

    /// The name of an event of `kind` carrying `part`: the one `make` made the first time, numbered from
    /// ``ExportName/keyCount`` up, or one `make` makes now, not numbered, once the cache is full.
    mutating func name(_ kind: EventKind, _ part: String?, make: () -> String) -> ExportName {
        let key = Key(kind: kind, part: part)
        if let name = names[key] { return name }
        let size = part?.utf8.count ?? 0
        guard names.count < limit, size <= byteLimit - bytes else { return ExportName(make()) }
        let name = ExportName(make(), key: ExportName.keyCount + names.count)
        names[key] = name
        bytes += size
        return name
    }
}
