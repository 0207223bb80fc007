import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// What the analyzer tells as it reads a trace, handed to an ``ExportLayout`` that turns it into tracks, slices
/// and instants for an encoder.
final class TraceExporter: TimelineObserver {
    /// Mutated in place, with no exclusivity check per call (``InPlace``).
    private let state: InPlace<ExportLayout>
    private var layout: ExportLayout {
        _read { yield state.value }
        _modify { yield &state.value }
    }

    /// A copy of the block the events come from, which the encoder may read after the analyzer has moved on.
    private let block = InPlace<PinnedBlock?>(nil)
    /// Told the events exported so far as each block starts (``TraceExport/export(_:file:format:to:configuration:models:progress:)``).
    private let progress: ((Int) -> Void)?

    /// What the export holds so far.
    var summary: ExportSummary { layout.summary }

    /// An exporter of the trace `file` (its header naming the app) to `encoder`, keeping the names it makes from
    /// what events carry in `names`.
    init(
        file: String, header: TraceHeader?, encoder: any ExportEncoder, names: ExportNameCache = ExportNameCache(),
        progress: ((Int) -> Void)? = nil
    ) {
        state = InPlace(ExportLayout(file: file, header: header, encoder: encoder, names: names))
        self.progress = progress
    }

    deinit {
        state.free()
        block.free()
    }

    func blockStarted(_ block: borrowing EventBlock) {
        progress?(layout.summary.events)
        layout.blockStarted(strings: block.strings.count)
        let pinned = PinnedBlock(block)
        self.block.value = pinned
        layout.encoder.keep(pinned)
    }

    func processStarted(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int) {
        layout.processStarted(ExportEventFields(event, in: pinned), index: index)
    }

    func event(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int) {
        // The event's fields are read from the pinned copy of the lent block, now or on the encoder's thread.
        layout.event(ExportEventFields(event, in: pinned), index: index)
    }

    /// Where the copy of the current block is.
    private var pinned: UnsafePointer<EventBlock> {
        guard let pinned = block.value else { preconditionFailure("an event before its block") }
        return pinned.pointer
    }

    func segment(scene: String?, state: TimelineState, from start: Int64, to end: Int64, inferred: Bool) {
        layout.segment(scene: scene, state: state, from: start, to: end, inferred: inferred)
    }

    func processEnded(at t: Int64, as end: ProcessEnd) {
        layout.processEnded(at: t, as: end)
    }

    func finding(rule: Rule, severity: Severity, message: String, scene: String?, t: Int64, index: Int) {
        layout.finding(rule: rule, severity: severity, message: message, scene: scene, t: t, index: index)
    }

    /// Writes what reading the trace warned of (``ExportLayout/inputWarnings(_:at:)``).
    func inputWarnings(_ warnings: [TraceWarning], at t: Int64) {
        layout.inputWarnings(warnings, at: t)
    }

    /// Ends the export.
    func finish() throws(TraceError) {
        try layout.finish()
    }
}
