extension EventKind {
    /// A named kind (not `custom`) in ``byNameLength``: its name's bytes and their hash (``KeptName/fnv1a(_:)``).
    private struct NamedKind {
        let kind: EventKind
        let name: [UInt8]
        let hash: UInt64
    }

    /// The named kinds by the length of their name in UTF-8.
    private static let byNameLength: [[NamedKind]] = {
        let named = byTag.compactMap { $0 }.filter { $0 != .custom }
        var table = [[NamedKind]](repeating: [], count: (named.map(\.name.utf8.count).max() ?? 0) + 1)
        for kind in named {
            let name = Array(kind.name.utf8)
            table[name.count].append(
                NamedKind(kind: kind, name: name, hash: name.withUnsafeBufferPointer(KeptName.fnv1a)))
        }
        return table
    }()

    /// Looks a kind up by its JSON Lines name; `custom.*` names are not matched here.
    public init?(name: String) {
        var name = name
        guard let kind = name.withUTF8({ EventKind(utf8: $0) }) else { return nil }
        self = kind
    }

    /// Looks a kind up by its JSON Lines name in UTF-8, as ``init(name:)`` does, with no string made: among the
    /// names of its length, the one of its hash, its bytes compared. `custom.*` names are not matched here.
    package init?(utf8 name: UnsafeBufferPointer<UInt8>) {
        guard name.count < Self.byNameLength.count else { return nil }
        let hash = KeptName.fnv1a(name)
        for entry in Self.byNameLength[name.count]
        where entry.hash == hash && entry.name.withUnsafeBufferPointer({ KeptName.sameBytes($0, name) }) {
            self = entry.kind
            return
        }
        return nil
    }
}
