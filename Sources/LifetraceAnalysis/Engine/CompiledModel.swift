// A model compiled to tables: the layout of the tables is the contract between the compiling code
// (CompiledModel+Compiling.swift) and the code that steps it (CompiledModel+Stepping.swift,
// CompiledModel+Accounting.swift).

import LifetraceCore
import LifetraceFormat

/// One ``LifecycleModel`` compiled into flat tables indexed by state, phase and event kind, with the
/// instances it tracks. ``ModelEngine`` hands it the events it touches, one mutable access per event.
struct CompiledModel {
    struct Transition {
        var phase: ScenePhase?
        var from: UInt64
        var to: Int
        /// The rule's number; -1 for a transition legal in every state.
        var rule: Int
    }

    struct HandlerBudget {
        var phase: ScenePhase?
        var budget: Int64
        var rule: Int
        /// The budget's name, for per-scene overrides.
        var name: Budget
    }

    struct Instance {
        var key: String
        var state: Int
        var since: Int64
        var times = StateTimes()

        /// Adds the time since the last change to the current state, counted as `accounting`, and starts
        /// the next stretch, in state `next`, at `t`; returns the stretch's length and start.
        @inline(__always)
        mutating func close(as accounting: ActivationState, at t: Int64, next: Int) -> (
            elapsed: Int64, start: Int64
        ) {
            let start = since
            let elapsed = max(0, t - start)
            times.add(elapsed, as: accounting)
            since = t
            state = next
            return (elapsed, start)
        }
    }

    /// What an event does to an instance in a given state, precomputed from the model.
    enum Action {
        /// Legal, and the state stays.
        static let stay: UInt8 = 0xFD
        /// A finding or a transition that depends on more than the kind: take the table-by-table path.
        static let examine: UInt8 = 0xFE
        /// With a state: legal, and the instance moves to that state, into or out of a state whose time counts
        /// otherwise when left at once (``CompiledModel/atOnceMove(instance:from:to:_:index:previousT:shared:reports:)``).
        static let atOnceFlag: UInt8 = 0x80
        // Any other value: legal, and the instance moves to that state.

        /// The index of `(state, phase, tag)` in ``CompiledModel/actions``.
        @inline(__always)
        static func index(state: Int, phase: ScenePhase?, tag: Int) -> Int {
            ((state << 2) | (phase.map { Int($0.rawValue) + 1 } ?? 0)) << 8 | tag
        }
    }

    let name: String
    let names: [String]
    let initial: Int
    let keyedByScene: Bool
    let requiresScene: Bool
    let accounting: [ActivationState]
    let stateBudget: [(budget: Int64, rule: Int, name: Budget)?]
    /// The smallest limit a state's budget has for any scene (`.max` for a state with no budget): an
    /// episode within it needs no closer look.
    let stateLimit: [Int64]
    /// Transitions of kind `tag` are `transitions[transitionStart[tag] ..< transitionStart[tag + 1]]`.
    let transitionStart: [Int]
    let transitions: [Transition]
    /// Transitions on custom events, by label (`custom.onResume` → `onResume`): models of other lifecycles.
    let customTransitions: [String: [Transition]]
    /// Per state: (kinds, rule) of its violations.
    let violations: [[(kinds: KindSet, rule: Int)]]
    let budgets: [[HandlerBudget]]
    /// By kind, the smallest limit any of its handler budgets has for any scene (`.max` for a kind with no
    /// budget): a handler within it needs no closer look.
    let handlerLimit: KindTable<Int64>
    /// Per state, whether its time counts otherwise when it is left at once (``LifecycleModel/LeftAtOnce``). A
    /// move into such a state, and one out of it by an event of its kinds, is flagged in the action table
    /// (``Action/atOnceFlag``), so a plain move reads nothing more.
    let waitsAtOnce: [Bool]
    /// For those states, the kinds that leave them at once, as four words of 64 bits per state (state `s`, tag
    /// `t`: bit `t & 63` of word `4s + t >> 6`), and what their time then counts as (`unattached` for other states).
    let atOnceKindWords: [UInt64]
    let atOnceAccounting: [ActivationState]
    /// What an event does in each state, by state, phase and kind: see ``Action``.
    let actions: [UInt8]
    let resets: KindSet
    /// Kinds the model looks at: transitions, violations or budgets.
    let touches: KindSet
    let isUI: Bool

    var instances: [Instance] = []
    /// The instance that last entered a state of ``waitsAtOnce``: which, since when, the index in the trace of the
    /// event that brought it there, and the end of that event's handler (events before it are the handler's).
    /// One at a time: a second instance entering is the first one's next event.
    var entered: (instance: Int, since: Int64, index: Int, handlerEnd: Int64)?
    /// The instances by key, once there are ``linearLimit`` or more; below that, a scan finds a key sooner
    /// than a hash of it.
    var index: [String: Int] = [:]
    static let linearLimit = 16
    /// The instance of each key of the current block, by slot: slot 0 for events without a key (and every
    /// event of a keyless model), slot `i + 1` for the block's string `i`. Valid when tagged with the current
    /// ``generation`` (`generation << 32 | instance`).
    var blockInstances: [UInt64] = []
    /// All ones for a model keyed by scene, zero otherwise: an event's slot is `(scene + 1) & slotMask`,
    /// with no branch (an absent scene is -1).
    let slotMask: Int
    /// Bumped at each block and each reset, invalidating ``blockInstances`` at once.
    var generation: UInt64 = 1
    /// The instance of events without a key (`-1` until looked up).
    var keyless = -1

    // MARK: - Instances

    /// The instance `event` is about: by its scene for keyed models, the one instance otherwise. Looked up
    /// by name once per block and key, created on first sight.
    @inline(__always)
    mutating func instance(for event: EventRecord, of block: borrowing EventBlock, shared: inout ModelEngine.Shared)
        -> Int
    {
        let slot = (Int(event.scene) &+ 1) & slotMask
        let cached = blockInstances[slot]
        if cached >> 32 == generation { return Int(truncatingIfNeeded: cached & 0xFFFF_FFFF) }
        return lookUpInstance(slot: slot, at: event.t, of: block, shared: &shared)
    }

    /// The instance of `slot` (see ``blockInstances``), the first time the block uses it.
    mutating func lookUpInstance(
        slot: Int, at t: Int64, of block: borrowing EventBlock, shared: inout ModelEngine.Shared
    ) -> Int {
        let i: Int
        if slot == 0 {
            if keyless < 0 { keyless = instance(key: "", at: t, shared: &shared) }
            i = keyless
        } else {
            // A scene's instance is keyed by its name kept bounded: memory per scene, not per byte of its name.
            i = instance(key: KeptName.bounded(block.strings[slot - 1]), at: t, shared: &shared)
        }
        blockInstances[slot] = generation << 32 | UInt64(i)
        return i
    }

    mutating func instance(key: String, at t: Int64, shared: inout ModelEngine.Shared) -> Int {
        let next = instances.count
        if next < Self.linearLimit {
            if let known = instances.firstIndex(where: { $0.key == key }) { return known }
        } else {
            if next == Self.linearLimit {
                for (i, instance) in instances.enumerated() { index[instance.key] = i }
            }
            // One hash: the next instance number goes in as the default, and stays there when the key is new.
            let i = Self.value(of: &index[key, default: next])
            guard i == next else { return i }
        }
        instances.append(Instance(key: key, state: initial, since: t))
        if isUI { shared.uiCounts.add(accounting[initial], 1) }
        return next
    }

    /// The value of an `inout` access: through a dictionary's `default:` subscript, that access stores
    /// the default when the key is missing.
    static func value(of entry: inout Int) -> Int { entry }
}
