import LifetraceAnalysis
import LifetraceCore

/// The name of an exported slice or instant and, where it is one of a small vocabulary (an event kind's name, a
/// state's, how a process ended), a number that stands for it: an encoder keeps what it derives from a name
/// (Perfetto's iid, Chrome's escaped bytes) by that number, so that the events of a trace, millions of them with a
/// few dozen names, do not hash or scan the same text again and again.
struct ExportName {
    /// One more than the largest ``key`` of the fixed vocabulary (event kinds, states, how a process ended); the
    /// names ``ExportNameCache`` makes from what events carry are numbered from here up.
    static let keyCount = 512
    /// The first key of the names ``ExportLayout`` numbers itself (states, then how a process ended); the keys
    /// below are event kinds'.
    static let firstStateKey = 256
    /// The first key of the names of how a process ended (``ProcessEnd``), after the states' recorded and
    /// inferred names.
    static let firstProcessEndKey = firstStateKey + 2 * TimelineState.allCases.count

    /// The name.
    var text: String
    /// Its number: below ``keyCount`` in the fixed vocabulary, from it up for a name ``ExportNameCache`` made; -1 for
    /// any other name, looked up by its text. A number stands for one text for the whole export (the cache never
    /// lets a name go): encoders, and the encoding thread's copies of names, keep what a number stands for.
    var key: Int

    /// A name numbered `key` (-1: not numbered).
    init(_ text: String, key: Int = -1) {
        self.text = text
        self.key = key
    }

    /// The name of the events of `kind` (for `custom`, only the prefix its label completes).
    init(_ kind: EventKind) {
        self.init(kind.name, key: Int(kind.rawValue))
    }

    /// The same name, its text one that no other thread counts references to: an event kind's name is its literal
    /// again (which no one counts), any other a copy of its own. What the encoding thread keeps of a name the
    /// reading thread made, so that the two threads do not count references on one string.
    func ownCopy() -> ExportName {
        if key >= 0, key < Self.firstStateKey, let kind = EventKind(rawValue: UInt8(key)) { return ExportName(kind) }
        return ExportName(String(decoding: Array(text.utf8), as: UTF8.self), key: key)
    }
}
