/// A set of event kinds by tag, as 256 bits: membership is a load, a shift and a mask.
struct KindSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ tag: Int) {
        let bit: UInt64 = 1 << UInt64(tag & 63)
        switch (tag >> 6) & 3 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    @inline(__always)
    func contains(_ tag: Int) -> Bool {
        let word = withUnsafeBytes(of: words) { $0.load(fromByteOffset: (tag >> 3) & 24, as: UInt64.self) }
        return (word >> UInt64(tag & 63)) & 1 != 0
    }
}
