/// A set of event kinds by tag, as 256 bits: membership is a load, a shift and a mask.
struct KindSet {
    /// Four words of 64 bits; tag `t` is bit `t & 63` of word `t >> 6`.
    private var words: [UInt64] = [0, 0, 0, 0]

    mutating func insert(_ tag: Int) {
        words[(tag >> 6) & 3] |= 1 << UInt64(tag & 63)
    }

    @inline(__always)
    func contains(_ tag: Int) -> Bool {
        (words[(tag >> 6) & 3] >> UInt64(tag & 63)) & 1 != 0
    }
}
