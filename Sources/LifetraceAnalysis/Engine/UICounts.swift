import LifetraceCore

/// How many instances of the UI models are in each kind of state: where the UI is, in constant time and
/// with no branch.
struct UICounts {
    /// The counts by the state's raw value (active, inactive, background, unattached); the last (`unattached`) is
    /// kept but never read.
    private var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)

    @inline(__always)
    mutating func add(_ state: ActivationState, _ delta: Int) {
        let offset = Int(state.rawValue) &* MemoryLayout<Int>.stride
        withUnsafeMutableBytes(of: &counts) { counts in
            counts.storeBytes(
                of: counts.load(fromByteOffset: offset, as: Int.self) &+ delta, toByteOffset: offset, as: Int.self)
        }
    }

    /// `.active` if any instance is active, `.inactive` if any is in the foreground, `.background` if any
    /// is in the background, `.unattached` if none is attached.
    @inline(__always)
    var state: ActivationState {
        // Which of active, inactive and background have instances (bits 0, 1, 2), then the first of them,
        // read from a table of eight two-bit raw values: 0 → unattached, odd → active, 2 and 6 → inactive,
        // 4 → background.
        let present = (counts.0 > 0 ? 1 : 0) | (counts.1 > 0 ? 2 : 0) | (counts.2 > 0 ? 4 : 0)
        let table: UInt16 = 0b00_01_00_10_00_01_00_11
        return ActivationState(rawValue: UInt8(truncatingIfNeeded: table >> UInt16(2 &* present)) & 3) ?? .unattached
    }
}
