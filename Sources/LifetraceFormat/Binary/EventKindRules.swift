import LifetraceCore

/// What the walk over a block's events looks up by each event's kind tag: the kind, and the fields it requires
/// and must not carry. 256 entries of each, made once for the process, read only, and read with no bounds check
/// (a tag is a byte).
final class EventKindRules: Sendable {
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
    nonisolated(unsafe) private let kinds: UnsafeMutablePointer<EventKind?>
    /// The rule of every tag: what a known kind requires, and a label for all but custom events.
    nonisolated(unsafe) private let rules: UnsafeMutablePointer<Rule>

    private init() {
        kinds = .allocate(capacity: 256)
        kinds.initialize(repeating: nil, count: 256)
        rules = .allocate(capacity: 256)
        rules.initialize(repeating: Rule(required: [], forbidden: []), count: 256)
        for kind in EventKind.allCases {
            kinds[Int(kind.rawValue)] = kind
            rules[Int(kind.rawValue)] = Rule(required: kind.requiredFields, forbidden: kind == .custom ? [] : .label)
        }
    }

    /// The kind whose tag is `tag`, `nil` if this library does not know it.
    @inline(__always)
    func kind(_ tag: UInt8) -> EventKind? { kinds[Int(tag)] }

    /// The rule of the kind whose tag is `tag`.
    @inline(__always)
    func rule(_ tag: UInt8) -> Rule { rules[Int(tag)] }
}
