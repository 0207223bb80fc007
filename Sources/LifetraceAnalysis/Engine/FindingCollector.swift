import LifetraceCore
import LifetraceFormat

/// Turns the rules' reports into findings: each with the events that led to it, at most
/// ``TraceAnalyzer/keptFindingsPerRule`` of each rule (the rest counted exactly), every string kept bounded, so
/// that memory does not grow with the number of findings or the size of what a trace names.
struct FindingCollector {
    private let file: String
    private let configuration: AnalysisConfiguration
    /// The rules models bring along, beside the catalogue's.
    private let modelRules: [RuleID: Rule]
    /// The callbacks the trace's platform has, which the findings' titles name.
    private let family: CallbackFamily
    private(set) var findings: [Finding] = []
    /// Findings kept so far, by rule id; and the ones counted past the cap, in the order rules first overflowed.
    private var keptByRule: [RuleID: Int] = [:]
    private(set) var omitted: [OmittedFindings] = []
    /// How many findings of a rule, scene and event name came before: the ordinal of a finding's baseline key.
    private var ordinals: [String: Int] = [:]
    /// The last events of the blocks before the current one, materialised and bounded (a frame naming a 16 MB
    /// scene is not kept whole by the events carried past it): the start of a finding's context.
    private var carried: [IndexedEvent] = []
    /// Told each finding as it is kept, in the order of ``findings`` (``TraceAnalyzer/onFinding``).
    var onFinding: ((Finding) -> Void)?

    /// The number of events a finding shows: the event and the three before it.
    static let contextLength = 4

    init(file: String, configuration: AnalysisConfiguration, models: [LifecycleModel], family: CallbackFamily) {
        self.file = file
        self.family = family
        self.configuration = configuration
        modelRules = Dictionary(models.flatMap(\.rules).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Keeps the last events of `block`, materialised, for the context of findings in the blocks to come.
    mutating func carry(_ block: borrowing EventBlock, blockStart: Int) {
        let taken = min(Self.contextLength, block.count)
        carried.removeFirst(max(0, carried.count + taken - Self.contextLength))
        for row in (block.count - taken)..<block.count {
            carried.append(IndexedEvent(index: blockStart + row, event: block.event(at: row)).bounded)
        }
    }

    /// The events up to and including `row` of `block` (the last events read when `block` is `nil`), oldest
    /// first.
    private func context(_ block: EventBlock?, row: Int, blockStart: Int) -> [IndexedEvent] {
        guard let block else { return carried }
        let taken = min(Self.contextLength, row + 1)
        var events = Array(carried.suffix(Self.contextLength - taken))
        for r in (row + 1 - taken)...row {
            events.append(IndexedEvent(index: blockStart + r, event: block.event(at: r)))
        }
        return events
    }

    /// Turns `reports` of the event at `index` and time `t` (`row` of `block`; the end of the trace when `block`
    /// is `nil`) into findings, and tells `observer` of each.
    mutating func collect(
        _ reports: [ModelEngine.Report], index: Int, t: Int64, block: EventBlock?, row: Int, blockStart: Int,
        observer: (any TimelineObserver)? = nil
    ) {
        var context: [IndexedEvent]?
        for item in reports {
            guard let rule = (RuleCatalog.rule(item.rule) ?? modelRules[item.rule])?.worded(for: family) else {
                // Code reports the catalogue's constants, models the rules they were validated against on loading.
                assertionFailure(
                    "rule \(item.rule) was reported but neither the catalogue nor a loaded model declares it")
                continue
            }
            guard !configuration.disabledRules.contains(item.rule) else { continue }
            observer?.finding(
                rule: rule, severity: configuration.severity(of: rule), message: item.message, scene: item.scene,
                t: t, index: index)
            let kept = keptByRule[item.rule, default: 0]
            guard kept < TraceAnalyzer.keptFindingsPerRule else {
                if let known = omitted.firstIndex(where: { $0.rule.id == item.rule }) {
                    omitted[known].count += 1
                } else {
                    omitted.append(OmittedFindings(rule: rule, severity: configuration.severity(of: rule), count: 1))
                }
                continue
            }
            keptByRule[item.rule] = kept + 1
            if context == nil { context = self.context(block, row: row, blockStart: blockStart).map(\.bounded) }
            guard let context, let event = context.last?.event else { continue }
            let name = event.eventName
            let scene = (item.scene ?? event.scene).map(KeptName.cut)
            // Bounded like the key it numbers: a scene name of megabytes is not copied into every key.
            let ordinalKey = item.rule.rawValue + "|" + (item.scene.map(KeptName.cut) ?? "") + "|" + name
            let ordinal = ordinals[ordinalKey, default: 0]
            ordinals[ordinalKey] = ordinal + 1
            findings.append(
                Finding(
                    rule: rule, severity: configuration.severity(of: rule), file: file, eventIndex: index, t: event.t,
                    eventName: name, scene: scene, message: KeptName.cut(item.message), measured: item.measured,
                    budget: item.budget,
                    context: context, baselineKey: "\(item.rule) \(scene ?? "-") \(name) #\(ordinal)"))
            onFinding?(findings[findings.count - 1])
        }
    }

}
