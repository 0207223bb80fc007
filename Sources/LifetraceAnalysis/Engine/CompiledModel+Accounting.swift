// The time each instance spends in each state: moves, states left at once, budgets, a new process, the end.

import LifetraceCore
import LifetraceFormat

extension CompiledModel {
    @inline(__always)
    mutating func move(
        instance i: Int, to state: Int, at t: Int64, shared: inout ModelEngine.Shared,
        reports: inout [ModelEngine.Report]
    ) {
        let old = instances[i].state
        guard old != state else { return }
        if isUI {
            shared.uiCounts.add(accounting[old], -1)
            shared.uiCounts.add(accounting[state], 1)
        }
        close(instance: i, at: t, next: state, shared: &shared, reports: &reports)
    }

    // MARK: - States left at once

    /// A legal move of instance `i` from `state` to `target` with `event`, into or out of a state of
    /// ``waitsAtOnce``: out of it, its time there may count otherwise (``leftAtOnce(instance:state:_:index:previousT:shared:)``);
    /// into it, the process's next event will tell.
    @inline(never)
    mutating func atOnceMove(
        instance i: Int, from state: Int, to target: Int, _ event: EventRecord, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        if waitsAtOnce[state], target != state,
            let alternative = leftAtOnce(
                instance: i, state: state, event, index: index, previousT: previousT, shared: &shared)
        {
            // The move, its time since it entered the state counted otherwise.
            if isUI {
                shared.uiCounts.add(accounting[state], -1)
                shared.uiCounts.add(accounting[target], 1)
            }
            close(
                instance: i, in: state, at: event.t, next: target, as: alternative, shared: &shared, reports: &reports)
        } else {
            move(instance: i, to: target, at: event.t, shared: &shared, reports: &reports)
        }
        if target != state, waitsAtOnce[target] { entered = (i, event.t, index, event.t &+ max(0, event.dur)) }
    }

    /// Whether instance `i`, in `state`, leaves it at once with `event` (the `index`th of the trace, the
    /// process's event before it at `previousT`): `event` is of the kinds that leave the state at once, and the process's
    /// next event after the one that brought the instance there — or every event between fell within that
    /// event's handler — with no suspension between. Returns what the instance's time in the state then counts
    /// as, and tells the analyzer (``ModelEngine/Shared/recounted``).
    mutating func leftAtOnce(
        instance i: Int, state: Int, _ event: EventRecord, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared
    ) -> ActivationState? {
        let tag = Int(event.tag)
        guard (atOnceKindWords[state << 2 | tag >> 6] >> UInt64(tag & 63)) & 1 != 0, let entered, entered.instance == i,
            entered.since == instances[i].since, shared.suspensionIndex != index
        else { return nil }
        let next = index == entered.index &+ 1
        // Time-ordered: if the event just before is within the handler, so is every one since the entering event.
        let withinHandler = previousT < entered.handlerEnd
        guard next || withinHandler else { return nil }
        self.entered = nil
        let accounting = atOnceAccounting[state]
        shared.recountedIndex = index
        shared.recounted = (entered.since, accounting)
        return accounting
    }

    /// Adds the time since the last change to the instance's current state, checking the state's budget,
    /// and moves it to state `next` (by default, the state it is in).
    @inline(__always)
    mutating func close(
        instance i: Int, at t: Int64, next: Int? = nil, shared: inout ModelEngine.Shared,
        reports: inout [ModelEngine.Report]
    ) {
        let state = instances[i].state
        close(instance: i, in: state, at: t, next: next, as: accounting[state], shared: &shared, reports: &reports)
    }

    /// ``close(instance:at:next:shared:reports:)`` of instance `i`, in `state`, the time counted as `kind`.
    @inline(__always)
    mutating func close(
        instance i: Int, in state: Int, at t: Int64, next: Int?, as kind: ActivationState,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        // One access to the instance, so one uniqueness check of the array.
        let (elapsed, start) = instances[i].close(as: kind, at: t, next: next ?? state)
        if shared.segmentLog != nil, kind != .unattached, elapsed > 0 {
            shared.segmentLog?.append((instances[i].key, kind, start, t))
        }
        guard elapsed > stateLimit[state], let budget = stateBudget[state] else { return }
        let key = instances[i].key
        let limit = shared.limit(budget.name, default: budget.budget, scene: key)
        guard elapsed > limit else { return }
        reports.append(
            ModelEngine.Report(
                rule: shared.rules[budget.rule],
                message:
                    "\(name) \(key) was \(names[state]) for \(Nanoseconds.short(elapsed)), over its \(Nanoseconds.short(limit))",
                scene: key.isEmpty ? nil : key, measured: elapsed, budget: limit))
    }

    /// A new process: keyed instances (scenes) are gone until their events bring them back; a keyless
    /// instance starts again in the initial state. Times are kept; those of scenes go to `shared`.
    mutating func reset(at t: Int64, shared: inout ModelEngine.Shared) {
        entered = nil
        var ignored: [ModelEngine.Report] = []
        for i in instances.indices {
            close(instance: i, at: t, shared: &shared, reports: &ignored)
            if isUI { shared.uiCounts.add(accounting[instances[i].state], -1) }
            instances[i].state = initial
            if isUI, !keyedByScene { shared.uiCounts.add(accounting[initial], 1) }
        }
        guard keyedByScene else { return }
        if isUI {
            for instance in instances { shared.retire(instance) }
        }
        instances.removeAll(keepingCapacity: true)
        if !index.isEmpty { index.removeAll(keepingCapacity: true) }
        generation += 1
        keyless = -1
    }

    /// Closes every instance's accounting at `t` (the end of the trace).
    mutating func finish(at t: Int64, shared: inout ModelEngine.Shared) {
        var ignored: [ModelEngine.Report] = []
        for i in instances.indices { close(instance: i, at: t, shared: &shared, reports: &ignored) }
    }
}
