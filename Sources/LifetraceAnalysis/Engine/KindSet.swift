/// A set of event kinds by tag, as 256 bits: membership is one shift and one mask.
struct KindSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ tag: Int) {
        switch tag >> 6 {
        case 0: words.0 |= 1 << UInt64(tag & 63)
        case 1: words.1 |= 1 << UInt64(tag & 63)
        case 2: words.2 |= 1 << UInt64(tag & 63)
        default: words.3 |= 1 << UInt64(tag & 63)
        }
    }

    @inline(__always)
    func contains(_ tag: Int) -> Bool {
        let word: UInt64
        switch tag >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word & (1 << UInt64(tag & 63)) != 0
    }
}
