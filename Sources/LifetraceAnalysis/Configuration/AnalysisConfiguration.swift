package import LifetraceCore
package import LifetraceFormat

/// Budgets and severities the analyzer checks against, with documented defaults, overridable by a
/// `lifetrace.json` file (`Schemas/lifetrace-config.schema.json`).
public struct AnalysisConfiguration: Sendable, Equatable {
    /// Budgets by name, in nanoseconds; `nil` turns a budget off (a name missing is unknown to
    /// `lifetrace.json`).
    public var budgets: [Budget: Int64?]
    /// Severity overrides by rule id (a team may make a warning an error).
    public var severities: [RuleID: Severity]
    /// Rules turned off.
    public var disabledRules: Set<RuleID>
    /// Budgets set for particular scenes (a document editor's scene may spend longer in the background
    /// handler than its viewer's), by scene id and budget name; `nil` turns a budget off for that scene. A
    /// service's are here too, by its name (`services` in `lifetrace.json`): a service's events name it where
    /// a scene's name the scene.
    public var sceneBudgets: [String: [Budget: Int64?]] = [:]
    /// How a service process's group shuts its services down (`serviceShutdownOrder`): in reverse start order,
    /// one at a time, by default, as swift-service-lifecycle's `ServiceGroup` does.
    public var serviceShutdownOrder = ServiceShutdownOrder.reverseStart

    static let second: Int64 = 1_000_000_000

    /// The documented defaults (each ``Budget`` says where its default comes from).
    public static let defaults = AnalysisConfiguration(
        budgets: [
            .didEnterBackground: 5 * second,
            .willTerminate: 5 * second,
            .backgroundTask: 30 * second,
            .refreshTask: 30 * second,
            .expirationGrace: 1 * second,
            .launch: 5 * second,
            .inactiveEpisode: nil,
            .shutdownGrace: 30 * second,
            .serviceReady: 90 * second,
        ],
        severities: [:],
        disabledRules: [])

    /// Creates a configuration.
    public init(budgets: [Budget: Int64?], severities: [RuleID: Severity], disabledRules: Set<RuleID>) {
        self.budgets = budgets
        self.severities = severities
        self.disabledRules = disabledRules
    }

    /// The budget `name` in nanoseconds, or `nil` when it is off or unknown.
    public func budget(_ name: Budget) -> Int64? {
        budgets[name] ?? nil
    }

    /// The severity a finding of `rule` gets.
    public func severity(of rule: Rule) -> Severity {
        severities[rule.id] ?? rule.severity
    }

    /// The configuration `json` (the file `path`'s) gives a trace with `header`.
    package init(_ json: JSONValue, file path: String, for header: TraceHeader?) throws(TraceError) {
        var configuration = AnalysisConfiguration.defaults
        try configuration.apply(json, file: path)
        // The style as the header names it, so a style lifetrace does not know still selects its own settings;
        // an app without a scene manifest that names none is an app-delegate app.
        let style =
            header?[.style]?.stringValue
            ?? (header?.sceneManifest == false ? TraceHeader.AppStyle.appDelegate.rawValue : nil)
        if let style, let styled = json["styles"]?[style] { try configuration.apply(styled, file: path) }
        if let order = json["serviceShutdownOrder"] {
            guard let text = order.stringValue, let value = ServiceShutdownOrder(rawValue: text) else {
                throw TraceError(
                    .malformed, file: path, at: .file, "serviceShutdownOrder must be \"reverse-start\" or \"any\"")
            }
            configuration.serviceShutdownOrder = value
        }
        // A service's budgets by its name, as a scene's by its id: both name the instance their events are about.
        var instances: [(key: String, value: JSONValue)] = []
        if case let .object(scenes)? = json["scenes"] { instances += scenes }
        if case let .object(services)? = json["services"] { instances += services }
        for (scene, settings) in instances {
            var scoped = AnalysisConfiguration(budgets: configuration.budgets, severities: [:], disabledRules: [])
            try scoped.apply(settings, file: path)
            var overrides: [Budget: Int64?] = [:]
            if case let .object(members)? = settings["budgets"] {
                for (name, _) in members {
                    overrides[Budget(rawValue: name)] = scoped.budgets[Budget(rawValue: name)] ?? nil
                }
            }
            configuration.sceneBudgets[scene] = overrides
        }
        self = configuration
    }

    private mutating func apply(_ json: JSONValue, file: String) throws(TraceError) {
        if case let .object(members)? = json["budgets"] {
            for (key, value) in members {
                let name = Budget(rawValue: key)
                guard budgets.keys.contains(name) else {
                    throw TraceError(.malformed, file: file, at: .file, "unknown budget \"\(name)\"")
                }
                switch value {
                case .null, .string("off"): budgets[name] = .some(nil)
                case let .string(text):
                    guard let ns = Nanoseconds.parse(text) else {
                        throw TraceError(
                            .malformed, file: file, at: .file,
                            "budget \"\(name)\": \"\(text)\" is not a duration from 0 to 292 years")
                    }
                    budgets[name] = ns
                case let .int(seconds):
                    guard let ns = Nanoseconds.fromSeconds(seconds) else {
                        throw TraceError(
                            .malformed, file: file, at: .file,
                            "budget \"\(name)\": \(seconds) s is out of range (0 to 292 years)")
                    }
                    budgets[name] = ns
                case let .double(seconds):
                    guard let ns = Nanoseconds.fromSeconds(seconds) else {
                        throw TraceError(
                            .malformed, file: file, at: .file,
                            "budget \"\(name)\": \(seconds) s is out of range (0 to 292 years)")
                    }
                    budgets[name] = ns
                default: throw TraceError(.malformed, file: file, at: .file, "budget \"\(name)\" must be a duration")
                }
            }
        }
        if case let .object(members)? = json["rules"] {
            for (name, value) in members {
                let id = RuleID(rawValue: name)
                guard RuleCatalog.rule(id) != nil else {
                    throw TraceError(.malformed, file: file, at: .file, "unknown rule \"\(id)\"")
                }
                switch value.stringValue {
                case "off": disabledRules.insert(id)
                case "error": severities[id] = .error
                case "warning": severities[id] = .warning
                default:
                    throw TraceError(
                        .malformed, file: file, at: .file, "rule \(id) must be \"error\", \"warning\" or \"off\"")
                }
            }
        }
    }
}
