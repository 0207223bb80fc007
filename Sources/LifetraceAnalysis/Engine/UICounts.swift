/// How many instances of the UI models are in each kind of state: where the UI is, in constant time and
/// with no branch.
struct UICounts {
    /// The counts by ``LifecycleModel/Accounting/index``; the first (`none`) is kept but never read.
    private var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)

    @inline(__always)
    mutating func add(_ accounting: LifecycleModel.Accounting, _ delta: Int) {
        let offset = accounting.index &* MemoryLayout<Int>.stride
        withUnsafeMutableBytes(of: &counts) { counts in
            counts.storeBytes(
                of: counts.load(fromByteOffset: offset, as: Int.self) &+ delta, toByteOffset: offset, as: Int.self)
        }
    }

    /// `.active` if any instance is active, `.inactive` if any is in the foreground, `.background` if any
    /// is in the background, `.none` if none is attached.
    @inline(__always)
    var state: LifecycleModel.Accounting {
        // Which of active, inactive and background have instances (bits 0, 1, 2), then the first of them,
        // read from a table of eight two-bit entries: 0 → none, odd → active, 2 and 6 → inactive, 4 → background.
        let present = (counts.1 > 0 ? 1 : 0) | (counts.2 > 0 ? 2 : 0) | (counts.3 > 0 ? 4 : 0)
        let table: UInt16 = 0b01_10_01_11_01_10_01_00
        return LifecycleModel.Accounting(index: Int((table >> UInt16(2 &* present)) & 3))
    }
}
