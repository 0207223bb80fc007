extension LifecycleEvent {
    /// What makes this event unfit for a trace, or `nil` if it is well formed.
    ///
    /// Checks what every encoding requires: a non-negative `t` and `dur`, the fields the kind needs, a label
    /// exactly on custom events, finite numbers in attributes. Time order is the writer's to check.
    public var problem: String? {
        if t < 0 { return "t must not be negative" }
        if let dur, dur < 0 { return "dur must not be negative" }
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
