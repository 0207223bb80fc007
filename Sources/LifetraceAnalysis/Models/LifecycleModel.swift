import Foundation
public import LifetraceCore
import LifetraceFormat

/// A lifecycle state machine as data (`Schemas/models/*.json`, `Schemas/lifecycle-model.schema.json`).
///
/// The analyzer's ``ModelEngine`` interprets any number of these; a new lifecycle (an Android activity, a
/// server's service states) is a new JSON file, not new code.
public struct LifecycleModel: Sendable {
    /// A move from some states to another on an event.
    public struct Transition: Sendable {
        /// The event name (`scene.didBecomeActive`).
        public var event: String
        /// For `swiftui.scenePhase`-like events: the phase the event must carry.
        public var phase: ScenePhase?
        /// The states the event is legal in (`"*"` in the JSON: every state).
        public var from: Set<String>
        /// The state the event leads to (also after a violation, so one mistake is reported once).
        public var to: String
        /// The rule a violation is reported under; `nil` for a transition legal in every state (a snapshot's).
        public var rule: RuleID?
    }

    /// Events that are findings in a state, whatever the transitions say.
    public struct Violation: Sendable {
        /// The state.
        public var state: String
        /// The rule.
        public var rule: RuleID
        /// Event name patterns (`scene.*`, `*`); `nil` means every event of the model.
        public var events: [String]?
        /// Event names exempt from the patterns.
        public var except: Set<String>
    }

    /// A handler whose duration (`dur`) must stay within a named budget.
    public struct HandlerBudget: Sendable {
        /// The event.
        public var event: String
        /// The phase it must carry, for phase events.
        public var phase: ScenePhase?
        /// The budget's name in ``AnalysisConfiguration``.
        public var budget: Budget
        /// The rule an overrun is reported under.
        public var rule: RuleID
    }

    /// A state whose episodes must stay within a named budget.
    public struct StateBudget: Sendable {
        /// The budget's name in ``AnalysisConfiguration``.
        public var budget: Budget
        /// The rule an overlong episode is reported under.
        public var rule: RuleID
    }

    /// A state whose time counts otherwise when the instance leaves it at once by one of `events`: when that
    /// event, for the same instance, is the process's next one after the event that brought the instance there
    /// (events during that event's handler, and its `handler.return`, aside), with no suspension between.
    ///
    /// UIKit's connected scene: a user-requested scene moves quickly to the foreground, so a connection followed
    /// at once by `sceneWillEnterForeground` was foreground-inactive from its start; a system-requested one
    /// moves to the background, so a connection followed by anything else was in the background.
    public struct LeftAtOnce: Sendable {
        /// The events that leave the state at once.
        public var events: Set<String>
        /// What the time in the state then counts as.
        public var accounting: ActivationState
    }

    /// The model's name.
    public var name: String
    /// The event field whose value names an instance; `nil` for one instance per process.
    public var instanceField: String?
    /// Events without this field are not the model's.
    public var requireField: String?
    /// If set, the model applies only to traces whose header has this `scene_manifest`.
    public var appliesWhenSceneManifest: Bool?
    /// If set, the model applies only to traces that follow one of these lifecycles (the header's `lifecycle`;
    /// a header without one follows UIKit's).
    public var appliesWhenLifecycle: Set<TraceHeader.Lifecycle>?
    /// The state a new instance is in.
    public var initial: String
    /// The states and what their time counts as (`unattached`: nothing, a model's `none`).
    public var states: [String: ActivationState]
    /// State budgets: an episode longer than the budget (by name) is a finding of the rule.
    public var stateBudgets: [String: StateBudget]
    /// States whose time counts otherwise when they are left at once (``LeftAtOnce``), by state.
    public var leftAtOnce: [String: LeftAtOnce]
    /// The transitions.
    public var transitions: [Transition]
    /// State-wide violations.
    public var violations: [Violation]
    /// Handler budgets.
    public var handlerBudgets: [HandlerBudget]
    /// Events that return every instance to the initial state.
    public var resetOn: Set<String>
    /// Rules the model brings along (a model of another lifecycle names rules of its own).
    public var rules: [Rule]

    /// The models lifetrace ships: for UIKit, process, app-termination, scene, app-ui (no scene manifest) and
    /// swiftui-scene; for WatchKit, process, watchkit-app and swiftui-scene; for AppKit, process and appkit-app;
    /// for an app extension, app-extension.
    public static let builtIn: [LifecycleModel] = builtInSources.map { source in
        do {
            return try LifecycleModel(
                json: try JSONValue(parsing: source.json, file: "Schemas/models/\(source.name).json"),
                file: "Schemas/models/\(source.name).json", knownRules: Set(RuleCatalog.declared.map(\.id)))
        } catch {
            preconditionFailure("built-in model \(source.name) is invalid: \(error)")
        }
    }

    /// Whether the model applies to a trace whose header says `manifest` and follows `lifecycle`.
    public func applies(sceneManifest manifest: Bool?, lifecycle: TraceHeader.Lifecycle) -> Bool {
        if let wanted = appliesWhenSceneManifest, wanted != manifest { return false }
        if let lifecycles = appliesWhenLifecycle, !lifecycles.contains(lifecycle) { return false }
        return true
    }
}

extension TraceHeader? {
    /// The lifecycle a trace with this header follows: the header's `lifecycle`, UIKit's when it does not say
    /// (or there is no header).
    var followedLifecycle: TraceHeader.Lifecycle {
        self?.lifecycle ?? .uikit
    }
}
