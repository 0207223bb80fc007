package import LifetraceFormat

/// What the analyzer tells as it reads a trace, for a view of the trace built on the way: the reports'
/// ``Timeline``, or an export that keeps every event (`lifetrace export`).
///
/// The analyzer calls an observer in the trace's order: ``blockStarted(_:)`` before the events of each block it
/// reads, then for each event, first
/// ``processStarted(_:row:of:index:)`` if the event starts a process, then the
/// ``segment(scene:state:from:to:inferred:)`` stretches that closed up to the event, then
/// ``event(_:row:of:index:)``, then the ``finding(rule:severity:message:scene:t:index:)`` reports it
/// caused. ``processEnded(at:as:)`` comes when a process's end is known (its exit, the next launch, the end of the
/// trace); stretches of its scenes that close with it may still follow, until the next process starts.
package protocol TimelineObserver: AnyObject {
    /// The analyzer starts on `block`: the events the calls that follow lend come from it, until the next block.
    func blockStarted(_ block: borrowing EventBlock)

    /// A process starts with `event` (`block.records[row]`): its `process.launch`, or the first event of a trace
    /// (or capture) that begins while the process runs.
    func processStarted(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int)

    /// The next event of the trace, the `index`-th (from 0): `block.records[row]`, its strings and rarer fields
    /// in `block`, lent for the call (``EventBlock/event(at:)`` makes a ``LifecycleEvent`` of it, for an observer
    /// that keeps it).
    func event(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int)

    /// A stretch of time in one state, closed: of the process (`scene == nil`: `active`, `inactive`,
    /// `background` or `suspended`) or of a scene (`""` for the app's window). `inferred` marks a suspension
    /// inferred from silence rather than recorded.
    func segment(scene: String?, state: TimelineState, from start: Int64, to end: Int64, inferred: Bool)

    /// The running process ended at `t` (its observed exit, or its last sign of life), in the way `end` says.
    func processEnded(at t: Int64, as end: ProcessEnd)

    /// A rule reported a finding at the `index`-th event (time `t`); every one, including those past
    /// ``TraceAnalyzer/keptFindingsPerRule`` that the result only counts.
    func finding(rule: Rule, severity: Severity, message: String, scene: String?, t: Int64, index: Int)
}

extension TimelineObserver {
    /// An observer that reads each event during its call needs nothing of the block beforehand.
    package func blockStarted(_ block: borrowing EventBlock) {}
}
