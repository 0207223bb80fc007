/// A growable run of bytes written through a pointer, what the hot paths of the exports write into: appending a
/// byte is a store and an add, with none of an array's uniqueness and capacity checks per call, and emptying it
/// keeps its memory (up to a limit, so that an event of megabytes leaves no buffer of its size behind).
///
/// Its memory is a reference it owns, freed with the last copy; copies share it (no copy-on-write, unlike
/// swift-nio's `ByteBuffer`: hence the name), so a writer has one owner that writes to it (an encoder's), never two.
///
/// The type and the members the exports' writers call per event are `public` and `@inlinable` for one reason:
/// this toolchain keeps the body of an `@inlinable package` declaration out of its module, so a writer in another
/// module of the package (the exports') would call each of them rather than inline it. They are `count`,
/// `reserve(_:)`, `reserveTail(_:)`, `commitTail(_:)`, `append(_:)` (of a byte and of another buffer),
/// `appendBytes(_:)` and `appendVarint(_:)`. Everything else about it is `package`; it is not meant for use
/// outside lifetrace, and creating one takes a `package` initializer.
public struct ByteWriter: ByteAppending {
    /// The memory, freed when the last buffer that holds it goes.
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>

        @usableFromInline
        init(capacity: Int) {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }
    }

    @usableFromInline var storage: Storage
    /// ``Storage/base``, kept beside it so that an append reads no reference.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// The bytes written (``count``).
    @usableFromInline var written = 0
    /// The bytes it holds before it grows.
    @usableFromInline package private(set) var capacity: Int

    /// An empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        storage = Storage(capacity: self.capacity)
        base = storage.base
    }

    /// The bytes written.
    @inlinable
    public var count: Int { written }

    /// Whether nothing is written.
    @inlinable
    package var isEmpty: Bool { written == 0 }

    /// Makes room for `extra` more bytes.
    ///
    /// - Parameter extra: The bytes to be appended next.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(toHold: count + extra) }
    }

    @usableFromInline @inline(never)
    mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = Storage(capacity: newCapacity)
        grown.base.initialize(from: base, count: count)
        storage = grown
        base = grown.base
        capacity = newCapacity
    }

    /// Empties the buffer, keeping its memory unless it holds more than `limit` bytes.
    ///
    /// - Parameter limit: The most bytes of memory kept.
    @inlinable
    package mutating func removeAll(keepingCapacityUpTo limit: Int = .max) {
        written = 0
        if capacity > limit { shrink() }
    }

    @usableFromInline @inline(never)
    mutating func shrink() {
        capacity = 256
        storage = Storage(capacity: capacity)
        base = storage.base
    }

    /// Keeps the first `count` bytes only.
    @inlinable
    package mutating func removeLast(from newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        written = newCount
    }

    /// Removes the byte at `position`, moving those after it down.
    @inlinable
    package mutating func remove(at position: Int) {
        precondition(position >= 0 && position < count)
        (base + position).update(from: base + position + 1, count: count - position - 1)
        written -= 1
    }

    /// Appends a byte.
    ///
    /// - Parameter byte: The byte appended.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        written &+= 1
    }

    /// Appends `bytes`.
    ///
    /// - Parameter bytes: The bytes appended, copied.
    @inlinable @inline(__always)
    public mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        written &+= bytes.count
    }

    /// Appends what `other` holds.
    ///
    /// - Parameter other: The buffer whose bytes are appended, copied.
    @inlinable @inline(__always)
    public mutating func append(_ other: ByteWriter) {
        appendBytes(UnsafeRawBufferPointer(start: other.base, count: other.count))
    }

    /// Calls `body` with the bytes written.
    @inlinable
    package func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
