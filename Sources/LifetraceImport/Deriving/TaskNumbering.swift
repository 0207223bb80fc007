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
    /// The deriver as it was before the first held entry.
    let checkpoint: Checkpoint
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

    /// The deriver's state, kept by reference: a value cannot hold a value of its own type.
    final class Checkpoint: Sendable {
        let deriver: LifecycleDeriver
        init(_ deriver: LifecycleDeriver) { self.deriver = deriver }
    }

    /// Starts holding at `creation`, a redacted creation announced with `handler`.
    init(checkpoint: LifecycleDeriver, creation: LogLine, handler: String?) {
        self.checkpoint = Checkpoint(checkpoint)
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
        let message = entry.message
        if message.hasPrefix(UIKitTaskLine.announcement) {
            announced = UIKitTaskLine.handler(after: "expirationHandler: ", in: message)
        } else if message.hasPrefix(UIKitTaskLine.redactedCreation) {
            handlers.append(announced)
            announced = nil
        } else if message.hasPrefix(UIKitTaskLine.creation), let id = LifecycleDeriver.integer(after: "taskID = ", in: message) {
            return id - Int64(handlers.count)
        } else if message.hasPrefix(UIKitTaskLine.end), let id = LifecycleDeriver.integer(after: "UIBackgroundTaskIdentifier: ", in: message) {
            if ends.count < Self.consideredEnds { ends.append((id, handlers.count)) }
        } else if message.hasPrefix(UIKitTaskLine.endDetail),
            let id = LifecycleDeriver.integer(after: "Ending task with identifier ", in: message),
            let handler = UIKitTaskLine.handler(after: "_expireHandler: ", in: message),
            let index = handlers.firstIndex(of: handler) {
            return id - Int64(index)
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
                if best == nil || pairs > best!.pairs || (pairs == best!.pairs && first > best!.first) {
                    best = (pairs, first)
                }
            }
        }
        return best?.first
    }
}

/// The lines UIKit logs about background tasks.
enum UIKitTaskLine {
    static let announcement = "Will add backgroundTask with taskName: "
    static let redactedCreation = "Created background task <private>"
    static let creation = "Created background task "
    static let end = "Ending background task with UIBackgroundTaskIdentifier: "
    static let endDetail = "Ending task with identifier "

    /// The handler block after `marker` (`<__NSMallocBlock__: 0x107362a60>`); `nil` for `(null)` or none.
    static func handler(after marker: StaticString, in message: String) -> String? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        let value = UTF8Search.prefix(message, from: range.upperBound) { $0 == UInt8(ascii: ">") }
        guard value.hasPrefix("<"), value.count > 1 else { return nil }
        return String(value)
    }
}
