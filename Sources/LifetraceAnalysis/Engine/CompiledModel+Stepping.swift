// Stepping a compiled model: what an event does to the instance it is about.

import LifetraceCore
import LifetraceFormat

extension CompiledModel {
    /// A new block begins: its strings are new, so are the instances they name.
    mutating func beginBlock(stringCount: Int) {
        generation += 1
        let missing = (keyedByScene ? stringCount + 1 : 1) - blockInstances.count
        if missing > 0 { blockInstances.append(contentsOf: repeatElement(0, count: missing)) }
    }

    /// Reads one event of a kind the model touches (but does not reset on); `row` is its row in `block`. Inlined by
    /// force, as ``ModelEngine`` steps the models (`@_transparent`: see its `consume`).
    @_transparent
    mutating func step(
        _ event: EventRecord, tag: Int, row: Int, of block: borrowing EventBlock, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared,
        reports: inout [ModelEngine.Report]
    ) {
        if requiresScene, event.scene < 0 { return }
        if event.kind == .custom {
            stepCustom(
                event, row: row, of: block, index: index, previousT: previousT, shared: &shared, reports: &reports)
            return
        }
        let i = instance(for: event, of: block, shared: &shared)
        let state = instances[i].state
        let action = actions[Action.index(state: state, phase: event.phase, tag: tag)]
        if action == Action.examine {
            examine(
                instance: i, state: state, event, row: row, of: block, index: index, previousT: previousT,
                shared: &shared,
                reports: &reports)
        } else if action != Action.stay {
            if action & Action.atOnceFlag == 0 {
                move(instance: i, to: Int(action), at: event.t, shared: &shared, reports: &reports)
            } else {
                atOnceMove(
                    instance: i, from: state, to: Int(action & ~Action.atOnceFlag), event, index: index,
                    previousT: previousT,
                    shared: &shared, reports: &reports)
            }
        }
        // Nearly every handler is within the smallest limit (`dur` is 0 when absent).
        if event.dur > handlerLimit[event.tag], event.fields.contains(.dur) {
            checkHandler(
                tag: tag, dur: event.dur, phase: event.phase, scene: block.string(event.scene),
                name: block.eventName(at: row), shared: &shared, reports: &reports)
        }
    }

    /// Checks a handler of the kind `tag` that took `dur` against the model's handler budgets: for an event
    /// with its `dur`, or for a `handler.return` that brings the duration later. Rare: kept out of line.
    ///
    /// With `unreturned`, `dur` is a lower bound: a handler written unfinished whose `handler.return` never came,
    /// still running at its process's last event; with `running`, one still running now (``TraceAnalyzer/advance(to:)``).
    @inline(never)
    mutating func checkHandler(
        tag: Int, dur: Int64, phase: ScenePhase?, scene: String?, name: @autoclosure () -> String,
        unreturned: Bool = false,
        running: Bool = false, shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        guard dur > handlerLimit[UInt8(truncatingIfNeeded: tag)] else { return }
        for budget in budgets[tag] where budget.phase == nil || budget.phase == phase {
            let limit = shared.limit(budget.name, default: budget.budget, scene: scene)
            guard dur > limit else { continue }
            let message =
                running
                ? "\(name()) handler has run \(Nanoseconds.short(dur)) and has not returned, over its \(Nanoseconds.short(limit))"
                : unreturned
                    ? "\(name()) handler ran at least \(Nanoseconds.short(dur)): written unfinished, it had not returned by its process's last event; over its \(Nanoseconds.short(limit))"
                    : "\(name()) handler took \(Nanoseconds.short(dur)), over its \(Nanoseconds.short(limit))"
            reports.append(
                ModelEngine.Report(
                    rule: shared.rules[budget.rule], message: message, scene: scene, measured: dur,
                    budget: limit))
        }
    }

    /// A custom event: a transition of a model of another lifecycle, by label.
    mutating func stepCustom(
        _ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        guard let label = block.label(of: event), let transition = customTransitions[label]?.first else { return }
        let i = instance(for: event, of: block, shared: &shared)
        let state = instances[i].state
        if transition.from & (1 << UInt64(state)) == 0 {
            reports.append(outOfOrder(transition.rule, event, row: row, of: block, state: state, shared: shared))
        }
        if waitsAtOnce[state] || waitsAtOnce[transition.to] {
            atOnceMove(
                instance: i, from: state, to: transition.to, event, index: index, previousT: previousT, shared: &shared,
                reports: &reports)
        } else {
            move(instance: i, to: transition.to, at: event.t, shared: &shared, reports: &reports)
        }
    }

    /// The table-by-table path for an event the action table leaves to it: violations and illegal moves.
    mutating func examine(
        instance i: Int, state: Int, _ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int,
        previousT: Int64, shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        let tag = Int(event.tag)
        var reported = false
        for violation in violations[state] where violation.kinds.contains(tag) {
            reports.append(outOfOrder(violation.rule, event, row: row, of: block, state: state, shared: shared))
            reported = true
            break
        }
        for position in transitionStart[tag]..<transitionStart[tag + 1] {
            let transition = transitions[position]
            guard transition.phase == nil || transition.phase == event.phase else { continue }
            if transition.from & (1 << UInt64(state)) == 0, !reported {
                reports.append(
                    outOfOrder(
                        transition.rule, event, row: row, of: block, state: state, shared: shared,
                        showingPhase: true))
            }
            if waitsAtOnce[state] || waitsAtOnce[transition.to] {
                atOnceMove(
                    instance: i, from: state, to: transition.to, event, index: index, previousT: previousT,
                    shared: &shared,
                    reports: &reports)
            } else {
                move(instance: i, to: transition.to, at: event.t, shared: &shared, reports: &reports)
            }
            break
        }
    }

    /// The finding for `event` arriving in `state`, where the model does not allow it.
    func outOfOrder(
        _ rule: Int, _ event: EventRecord, row: Int, of block: borrowing EventBlock, state: Int,
        shared: ModelEngine.Shared, showingPhase: Bool = false
    ) -> ModelEngine.Report {
        let phase = showingPhase ? event.phase.map { " " + $0.name } ?? "" : ""
        return ModelEngine.Report(
            rule: shared.rules[rule],
            message: "\(block.eventName(at: row))\(phase) while \(name) is \(names[state])",
            scene: block.string(event.scene))
    }
}
