// LifetraceImport's one file of C library calls: every Glibc, Musl and Darwin symbol the importer uses is here,
// behind a Swift function that means the same on every platform.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte search (`memchr`, `memcmp`: vectorized, and far cheaper per log line than a loop).
enum ImportSystem {
    /// The offset of the first `byte` among the `count` bytes at `start`, or `nil`.
    @inline(__always)
    static func firstOffset(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard let hit = memchr(start, Int32(byte), count) else { return nil }
        return start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}
