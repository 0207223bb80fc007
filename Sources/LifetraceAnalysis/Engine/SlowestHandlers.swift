import LifetraceCore
import LifetraceFormat

/// The five longest handlers of a trace so far, longest first (``AnalysisResult/longestHandlers``).
///
/// Past the first few handlers nearly every one is shorter than the fifth longest: ``floor`` lets the analyzer
/// skip those with one comparison.
struct SlowestHandlers {
    /// How many are kept.
    static let kept = 5

    /// The longest handlers, longest first.
    private(set) var longest: [HandlerDuration] = []
    /// What a handler must exceed to be among the longest so far (-1 until there are ``kept``).
    private(set) var floor: Int64 = -1

    /// Notes the handler of `event` (the `index`th event of the trace, `block.records[row]`), longer than
    /// ``floor``: a `handler.return` stands for the callback it names.
    @inline(never)
    mutating func note(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int) {
        let name = event.kind == .handlerReturn ? block.extras(of: event).flatMap { block.string($0.name) } : nil
        longest.append(
            HandlerDuration(
                name: name ?? block.eventName(at: row), scene: block.string(event.scene).map(KeptName.bounded),
                dur: event.dur, index: index))
        longest.sort { $0.dur > $1.dur }
        if longest.count > Self.kept { longest.removeLast() }
        if longest.count == Self.kept { floor = longest[Self.kept - 1].dur }
    }
}
