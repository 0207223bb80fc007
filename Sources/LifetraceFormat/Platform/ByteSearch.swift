// LifetraceFormat's one file of C library calls: the byte search the JSON Lines reader and the importer share,
// behind Swift functions that mean the same on every platform.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte search (`memchr`, `memcmp`: vectorized, and far cheaper per line than a loop).
package enum ByteSearch {
    /// The offset of the first `byte` among the `count` bytes at `start`, or `nil`.
    @inline(__always)
    package static func firstOffset(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard let hit = memchr(start, Int32(byte), count) else { return nil }
        return start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// The offset of the first `byte` in `bytes`, or `nil`.
    @inline(__always)
    package static func firstOffset(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return firstOffset(of: byte, in: base, count: bytes.count)
    }

    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inline(__always)
    package static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}
