public import LifetraceCore

/// One place where a trace breaks a rule.
public struct Finding: Sendable, Hashable {
    /// The rule broken.
    public var rule: Rule
    /// The severity after configuration.
    public var severity: Severity
    /// The trace file.
    public var file: String
    /// The 0-based index of the event in the trace (the event that shows the problem).
    public var eventIndex: Int
    /// The event's time.
    public var t: Int64
    /// The event's name.
    public var eventName: String
    /// The scene, if the finding is about one.
    public var scene: String?
    /// What happened, specifically.
    public var message: String
    /// For budget findings: what was measured (ns).
    public var measured: Int64?
    /// For budget findings: the budget (ns).
    public var budget: Int64?
    /// The few events before the finding's event, and the event itself, for context.
    public var context: [IndexedEvent]

    /// The share of the budget used, for budget findings.
    public var budgetShare: Double? {
        guard let measured, let budget, budget > 0 else { return nil }
        return Double(measured) / Double(budget)
    }

    /// A key that identifies the finding across runs for `--baseline`: the rule, the scene and the
    /// event's name and ordinal among events of that name (not its time, which jitters).
    public var baselineKey: String
}

/// An event with its index in the trace.
public struct IndexedEvent: Sendable, Hashable {
    /// The 0-based index in the trace.
    public var index: Int
    /// The event.
    public var event: LifecycleEvent
}

extension IndexedEvent {
    /// The event with every string it carries cut to ``TraceAnalyzer/keptStringLength`` bytes: what a finding
    /// keeps of its context.
    var bounded: IndexedEvent {
        var copy = self
        let cut = KeptName.cut
        copy.event.scene = event.scene.map(cut)
        copy.event.name = event.name.map(cut)
        copy.event.reason = event.reason.map(cut)
        copy.event.label = event.label.map(cut)
        copy.event.attrs = event.attrs?.map { attribute in
            var attribute = attribute
            attribute.key = cut(attribute.key)
            if case let .string(text) = attribute.value { attribute.value = .string(cut(text)) }
            return attribute
        }
        return copy
    }
}
