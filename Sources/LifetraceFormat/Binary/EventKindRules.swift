import LifetraceCore

/// What the walk over a block's events looks up by each event's kind tag: the kind, and the fields it requires
/// and must not carry. Two tables by tag (``KindTable``), made once for the process and read only.
struct EventKindRules: Sendable {
    /// The fields a kind requires, and those it must not carry.
    struct Rule {
        var required: EventFields
        var forbidden: EventFields

        /// Whether `present` lacks a required field or holds a forbidden one: one test for both.
        @inline(__always)
        func isBroken(by present: EventFields) -> Bool {
            (required.rawValue & ~present.rawValue) | (forbidden.rawValue & present.rawValue) != 0
        }
    }

    /// The table of this library's kinds.
    static let shared = EventKindRules()

    /// The kind of every tag, `nil` for tags this version does not know.
    private let kinds: KindTable<EventKind?>
    /// The rule of every tag: what a known kind requires, and a label for all but custom events.
    private let rules: KindTable<Rule>

    private init() {
        kinds = KindTable(EventKind.byTag)
        rules = KindTable(
            EventKind.byTag.map { kind in
                guard let kind else { return Rule(required: [], forbidden: []) }
                return Rule(required: kind.requiredFields, forbidden: kind == .custom ? [] : .label)
            })
    }

    /// The kind whose tag is `tag`, `nil` if this library does not know it.
    @inline(__always)
    func kind(_ tag: UInt8) -> EventKind? { kinds[tag] }

    /// The rule of the kind whose tag is `tag`.
    @inline(__always)
    func rule(_ tag: UInt8) -> Rule { rules[tag] }
}
