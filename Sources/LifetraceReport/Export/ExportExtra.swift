import LifetraceAnalysis

/// A value an exported slice or instant carries of its own, beside its event's fields: what the export says of the
/// slice (how a task's slice ended, that a stretch was inferred, that a slice is drawn as an instant). Plain data,
/// so that the arguments holding it are copied as bytes and destroyed with nothing to release.
enum ExportExtra: BitwiseCopyable, Equatable {
    /// `returned`: whether a handler written unfinished returned, or its slice ended without its return.
    case returned(Bool)
    /// `dur`: the handler's duration its return gave (ns).
    case dur(Int64)
    /// `outcome`: how a slice of a task, or of a handler, ended.
    case outcome(Outcome)
    /// `begun`: why a task's end has no slice to end.
    case begun(Begun)
    /// `drawn`: a slice drawn as an instant, more than ``SliceLanes/maximumLanes`` overlapping on its track.
    case drawnAsInstant
    /// `end_ns`: the end of a slice drawn as an instant (ns).
    case endNanoseconds(Int64)
    /// `end`: how a process ended.
    case processEnd(ProcessEnd)
    /// `inferred`: `true`, a stretch in a state the analyzer inferred.
    case inferred

    /// How a slice ended, other than by its own end.
    enum Outcome: String, BitwiseCopyable {
        case begunAgain = "begun again before it ended"
        case ended = "ended"
        case endedAfterExpiration = "ended after its expiration handler ran"
        case openWhenTraceEnded = "open when the trace ended"
        case openWhenProcessEnded = "open when its process ended"
    }

    /// Why a task's end found no slice.
    enum Begun: String, BitwiseCopyable {
        case beforeTheTrace = "before the trace"
        case beforeTheTraceOrWhileLanesWereFull = "before the trace, or while its track's lanes were full"
    }

    /// The kinds of value's names, as both formats spell them, in ``ordinal`` order.
    static let kinds: [StaticString] = ["returned", "dur", "outcome", "begun", "drawn", "end_ns", "end", "inferred"]

    /// The kind of value, by its case's place from 0: what an encoder keeps a value's name's encoding by.
    var ordinal: Int {
        switch self {
        case .returned: 0
        case .dur: 1
        case .outcome: 2
        case .begun: 3
        case .drawnAsInstant: 4
        case .endNanoseconds: 5
        case .processEnd: 6
        case .inferred: 7
        }
    }

    /// The argument's name, as both formats spell it.
    var key: StaticString { Self.kinds[ordinal] }

    /// The argument's value.
    var value: ExportValue {
        switch self {
        case let .returned(flag): .bool(flag)
        case let .dur(number), let .endNanoseconds(number): .int(number)
        case let .outcome(outcome): .string(outcome.rawValue)
        case let .begun(begun): .string(begun.rawValue)
        case .drawnAsInstant: .string(Self.drawnText)
        case let .processEnd(end): .string(end.rawValue)
        case .inferred: .bool(true)
        }
    }

    /// What a slice drawn as an instant says of it, spelled once.
    private static let drawnText = "as an instant: \(SliceLanes.maximumLanes) slices overlap on its track"
}

/// The extra values of one slice or instant, in the order they were added: at most ``capacity``, held inline, so
/// that arguments stay plain data.
struct ExportExtras: BitwiseCopyable {
    /// The most values one slice or instant carries: a stretch inferred, then drawn as an instant with its end.
    static let capacity = 3

    // Filled in order: a value is set only if the ones before it are.
    private var first: ExportExtra?
    private var second: ExportExtra?
    private var third: ExportExtra?

    /// No values.
    init() {}

    /// `extra` alone.
    init(_ extra: ExportExtra) {
        append(extra)
    }

    /// `extra`, then `next`.
    init(_ extra: ExportExtra, _ next: ExportExtra) {
        append(extra)
        append(next)
    }

    /// Whether it holds no value.
    var isEmpty: Bool { first == nil }

    /// How many values it holds.
    var count: Int { first == nil ? 0 : second == nil ? 1 : third == nil ? 2 : 3 }

    /// Adds `extra` after the others.
    mutating func append(_ extra: ExportExtra) {
        if first == nil {
            first = extra
        } else if second == nil {
            second = extra
        } else if third == nil {
            third = extra
        } else {
            preconditionFailure("more than \(Self.capacity) extra values for one slice")
        }
    }

    /// Calls `body` with each value, in order.
    func forEach(_ body: (ExportExtra) -> Void) {
        guard let first else { return }
        body(first)
        guard let second else { return }
        body(second)
        if let third { body(third) }
    }
}

/// A value of text an instant carries besides its arguments, made from what the analysis said: a finding's rule,
/// severity and message, an input warning.
struct ExportNote {
    /// The argument's name, as both formats spell it.
    var key: StaticString
    /// The text.
    var text: String
}
