extension LifecycleEvent {
    /// What makes this event unfit for a trace, or `nil` if it is well formed.
    ///
    /// Checks what every encoding requires: a non-negative `t` and `dur` whose sum (the handler's end) fits
    /// 64 bits, the fields the kind needs, a label exactly on custom events, finite numbers in attributes, no
    /// attribute key twice. Time order and size are the writer's to check.
    public var problem: String? {
        if t < 0 { return "t must not be negative" }
        if let dur, dur < 0 { return "dur must not be negative" }
        if let dur, dur > Int64.max - t { return "t + dur (the handler's end) exceeds the signed 64-bit range" }
        if kind == .custom {
            guard let label, !label.isEmpty else { return "a custom event needs a name after \"custom.\"" }
        } else if label != nil {
            return "only custom events carry a label"
        }
        let missing = missingFields
        if !missing.isEmpty {
            return "\(kind.name) needs \(missing.names.map { "\"\($0)\"" }.joined(separator: ", "))"
        }
        if let attrs {
            for attribute in attrs {
                if case let .double(value) = attribute.value, !value.isFinite {
                    return "attribute \"\(attribute.key)\" is not a finite number"
                }
            }
            if let key = attrs.firstRepeatedKey { return "attribute \"\(key)\" appears twice" }
        }
        return nil
    }

    /// The UTF-8 bytes of the event's strings: label, scene, name, reason, and its attributes' keys and string values.
    public var textByteCount: Int {
        Self.textByteCount(label: label, scene: scene, name: name, reason: reason, attrs: attrs)
    }

    /// The UTF-8 bytes of an event's strings, given apart (a recorder's, before it makes the event).
    public static func textByteCount(
        label: String?, scene: String?, name: String?, reason: String?, attrs: [Attribute]?
    ) -> Int {
        var bytes =
            (label?.utf8.count ?? 0) + (scene?.utf8.count ?? 0) + (name?.utf8.count ?? 0) + (reason?.utf8.count ?? 0)
        for attribute in attrs ?? [] {
            bytes += attribute.key.utf8.count
            if case let .string(text) = attribute.value { bytes += text.utf8.count }
        }
        return bytes
    }
}

extension [Attribute] {
    /// The first key that an earlier attribute has too, if any: compared in place while there are few, through a
    /// set past them.
    public var firstRepeatedKey: String? {
        guard count > 1 else { return nil }
        if count <= 8 {
            for index in 1..<count where self[..<index].contains(where: { $0.key == self[index].key }) {
                return self[index].key
            }
            return nil
        }
        var seen = Set<String>(minimumCapacity: count)
        for attribute in self where !seen.insert(attribute.key).inserted { return attribute.key }
        return nil
    }

    /// The attributes with each key once, at its first place, holding the value it was given last, as a
    /// dictionary's assignments would leave it.
    public var lastValuePerKey: [Attribute] {
        guard firstRepeatedKey != nil else { return self }
        var place: [String: Int] = [:]
        var kept: [Attribute] = []
        for attribute in self {
            if let index = place[attribute.key] {
                kept[index].value = attribute.value
            } else {
                place[attribute.key] = kept.count
                kept.append(attribute)
            }
        }
        return kept
    }
}

extension LifecycleEvent {
    /// A fast check that the event has no ``problem``, for hot paths: true for every event without
    /// attributes that is well formed; when false, ``problem`` says what is wrong (or finds nothing wrong
    /// with the attributes).
    @inlinable
    public var isPlainlyValid: Bool {
        guard t >= 0, (dur ?? 0) >= 0, (dur ?? 0) <= Int64.max - t, attrs == nil else { return false }
        if kind == .custom {
            guard let label, !label.isEmpty else { return false }
        } else if label != nil {
            return false
        }
        return kind.requiredFields.isSubset(of: presentFields)
    }
}
