// Compiled into each module of what an app links by scripts/check-32bit, never into the package. On Apple
// Watch (arm64_32) `Int` is 32 bits: these conversions compile everywhere but trap there when the value does
// not fit. Non-generic, they are chosen over the standard library's generic `init(_:)`, so each use is a
// warning that names its line; use `Int(exactly:)`, `Int(clamping:)` or a wider type instead.

extension Int {
    @available(
        *, deprecated,
        message:
            "traps on 32-bit platforms (arm64_32) when the value exceeds Int32: use Int(exactly:), Int(clamping:) or Int64"
    )
    init(_ value: Int64) { self.init(truncatingIfNeeded: value) }
    @available(
        *, deprecated,
        message:
            "traps on 32-bit platforms (arm64_32) when the value exceeds Int32: use Int(exactly:), Int(clamping:) or Int64"
    )
    init(_ value: UInt64) { self.init(truncatingIfNeeded: value) }
    @available(
        *, deprecated,
        message:
            "traps on 32-bit platforms (arm64_32) when the value exceeds Int32: use Int(exactly:), Int(clamping:) or Int64"
    )
    init(_ value: UInt32) { self.init(truncatingIfNeeded: value) }
    @available(
        *, deprecated,
        message: "traps on 32-bit platforms (arm64_32) when the value exceeds Int32: use Int(exactly:) or Int64"
    )
    init(_ value: UInt) { self.init(truncatingIfNeeded: value) }
    @available(
        *, deprecated,
        message: "traps on 32-bit platforms (arm64_32) when the value exceeds Int32: use Int(exactly:) or Int64"
    )
    init(_ value: Double) { self.init(value.rounded(.towardZero).isFinite ? 0 : 0) }
}
