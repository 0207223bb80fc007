/// A value kept at one address for the life of the object that owns it, read and mutated there through the
/// address: what an encoder or exporter class keeps its per-event state in, since a class's stored `var` takes a
/// run-time exclusivity check on every access (the analyzer calls an exporter several times per event).
///
/// Its owner makes it in its initializer and calls ``free()`` once, in its `deinit`; a copy of it (the address) is
/// used only while its owner lives.
struct InPlace<Value> {
    private let pointer: UnsafeMutablePointer<Value>

    /// Keeps `value` at an address of its own.
    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    /// The value, read and mutated in place.
    var value: Value {
        unsafeAddress { UnsafePointer(pointer) }
        nonmutating unsafeMutableAddress { pointer }
    }

    /// Destroys the value and frees its memory.
    func free() {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
