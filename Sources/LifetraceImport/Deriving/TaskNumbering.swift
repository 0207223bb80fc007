/// Numbers the background tasks whose creation a log redacts (`Created background task <private>.`) when
/// the capture began in the middle of a process, where UIKit's count (1, 2, 3... per process) is not known.
///
/// From the first such creation, the deriver holds entries back instead of deriving them, until a line tells
/// the number of one of the held creations:
/// - a creation that shows its number (`taskID = N`): the held ones are the numbers just before it;
/// - `Ending task with identifier N and description: ..., _expireHandler: <H>`, where `H` is the handler block
///   a held creation was announced with (`Will add backgroundTask with taskName: ..., expirationHandler: <H>`);
/// - the process's launch (`Deactivation reason added: 10; deactivation reasons: 0 -> 1024`): they are its first.
/// The deriver then goes back to where it stopped and derives the held entries with the numbers known. When no
/// such line comes before the process ends, the capture ends or ``limit`` entries are held, ``likeliestFirst``
/// decides from the ends that were seen.
struct TaskNumbering: Sendable {
    /// The state machine as it was before the first held entry.
    let checkpoint: LifecycleStateMachine
    /// The entries held back, in order.
    private(set) var held: [LogLine] = []
    private var heldBytes = 0
    /// The expiration handler each held redacted creation was announced with, in order (`nil`: none shown).
    private var handlers: [String?] = []
    private var announced: String?
    /// `Ending background task with UIBackgroundTaskIdentifier: N` lines while holding: N, and how many held
    /// creations came before the line (the first ``consideredEnds``).
    private var ends: [(id: Int64, after: Int)] = []

    /// The most entries held back, and the most bytes of their messages.
    static let limit = 16_384
    static let byteLimit = 16 << 20
    private static let consideredEnds = 64

    /// Starts holding at `creation`, a redacted creation announced with `handler`.
    init(checkpoint: LifecycleStateMachine, creation: LogLine, handler: String?) {
        self.checkpoint = checkpoint
        held = [creation]
        heldBytes = creation.message.utf8.count
        handlers = [handler]
    }

    /// Whether no more entries may be held.
    var isFull: Bool { held.count >= Self.limit || heldBytes >= Self.byteLimit }

    /// Holds an entry of another process (SpringBoard's, runningboardd's).
    mutating func hold(_ entry: LogLine) {
        held.append(entry)
        heldBytes += entry.message.utf8.count
    }

    /// Holds an entry of the app's process; returns the number of the first held creation if the entry tells it.
    mutating func holdAppEntry(_ entry: LogLine) -> Int64? {
        hold(entry)
        switch UIKitTaskLine.observe(entry.message) {
        case let .announced(handler):
            announced = handler
        case .created(id: nil, _):
            handlers.append(announced)
            announced = nil
        case let .created(id?, _):
            return id - Int64(handlers.count)
        case let .ended(id):
            if ends.count < Self.consideredEnds { ends.append((id, handlers.count)) }
        case let .endedWithHandler(id, handler?):
            if let index = handlers.firstIndex(of: handler) { return id - Int64(index) }
        case .creationNotUnderstood, .endNotUnderstood, .endedWithHandler(_, nil), nil:
            break
        }
        return nil
    }

    /// The first held creation's number that pairs the most `Ending ...: N` lines with creations held before
    /// them; of equal pairings, the highest (tasks begun before the capture have the lower numbers). `nil` if
    /// no end came after a held creation.
    var likeliestFirst: Int64? {
        var best: (pairs: Int, first: Int64)?
        for end in ends where end.after > 0 {
            for offset in 0..<min(end.after, Self.consideredEnds) {
                let first = end.id - Int64(offset)
                let pairs = ends.reduce(0) { $0 + ($1.id >= first && $1.id < first + Int64($1.after) ? 1 : 0) }
                if let known = best, pairs < known.pairs || (pairs == known.pairs && first <= known.first) { continue }
                best = (pairs, first)
            }
        }
        return best?.first
    }
}
