extension LifecycleEvent {
    /// What makes this event unfit for a trace, or `nil` if it is well formed.
    ///
    /// Checks what every encoding requires: a non-negative `t` and `dur` whose sum (the handler's end) fits
    /// 64 bits, the fields the kind needs, a label exactly on custom events, finite numbers in attributes.
    /// Time order is the writer's to check.
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
        }
        return nil
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
