import LifetraceCore

/// The distinct scene names of a trace, gathered block by block: every block names most of the scenes the block
/// before it named, so nearly every name added is one already held.
///
/// Names are equal as Swift strings are (canonical equivalence), as a `Set<String>` holds them. Hashing every
/// name as a `String` costs a seeded SipHash each, most of what counting a trace of many scenes took; ASCII names,
/// nearly all of them, are equal only when their bytes are, so they are kept in a table of their own hashed by
/// their bytes, and the rest in a `Set<String>`. The two are merged by `String` equality once, at the end
/// (``names``): an ASCII name and another may still be equal (`K` and the Kelvin sign).
struct SceneNames: Sendable {
    /// A slot of the table: a name's hash and its index in ``ascii`` plus one, 0 when the slot is empty. The
    /// hash sits in the slot, so a probe reads the name only when the hashes agree.
    private struct Slot {
        var hash: UInt64 = 0
        var index: Int32 = 0
    }

    /// The ASCII names, each once.
    private var ascii: [String] = []
    /// Open addressing over ``ascii``: a power of two in size, at most half full.
    private var slots = [Slot](repeating: Slot(), count: 64)
    /// The names that are not ASCII.
    private var others: Set<String> = []

    /// Adds `name`, unless an equal name is held: kept bounded (``KeptName``), a long name cut and hashed.
    mutating func insert(_ name: String) {
        var name = KeptName.bounded(name)
        let found: Bool? = name.withUTF8 { bytes in
            guard String.isASCII(bytes) else { return nil }
            let hash = Self.hash(bytes)
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot].index != 0 {
                if slots[slot].hash == hash, ascii[Int(slots[slot].index) - 1].utf8.elementsEqual(bytes) { return true }
                slot = (slot + 1) & mask
            }
            slots[slot] = Slot(hash: hash, index: Int32(ascii.count + 1))
            return false
        }
        switch found {
        case nil: others.insert(name)
        case false?:
            ascii.append(name)
            if ascii.count * 2 > slots.count { grow() }
        case true?: break
        }
    }

    /// The number of distinct names. Only names that are not ASCII can equal another name held.
    var count: Int { others.isEmpty ? ascii.count : names.count }

    /// Every name, once.
    var names: Set<String> {
        var names = others
        names.reserveCapacity(others.count + ascii.count)
        for name in ascii { names.insert(name) }
        return names
    }

    /// Doubles the table and places every name again.
    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry.index != 0 {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot].index != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }

    /// FNV-1a over `bytes` (``KeptName/fnv1a(_:)``), its bits mixed so that the low ones, which pick the slot,
    /// depend on every byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let hash = KeptName.fnv1a(bytes)
        return hash ^ (hash >> 29)
    }
}
