import LifetraceCore
import LifetraceFormat

/// The rules of a service's lifecycle that the service model (`Schemas/models/service.json`, which declares them
/// all) cannot state as transitions, checked on a trace that follows the service lifecycle: they read what an
/// event carries (how a service ended, what its group does next) or what is still open when its process ends.
///
/// - LT090: a service ended on its own, neither asked to shut down nor cancelled, and its group cancels the rest
///   (its `success_termination` or `failure_termination` is not `ignore`, nor a normal return that shuts the group
///   down gracefully).
/// - LT091: a shutdown still running at the process's end, longer than its grace period so far (the model judges
///   a shutdown that ended).
/// - LT092: a service's own events (markers) after its stop (the model judges its `service.*` events).
/// - LT093: the process ended while its shutdown ran — a service still stopping, or a signal unanswered — with no
///   exit recorded, or an exit a supervisor recorded as SIGKILL.
/// - LT094: a service ready later after its start than its readiness budget.
/// - LT095: a service asked to shut down that stopped only when cancelled; a shutdown signal after which no
///   service was asked to shut down nor stopped, while the process went on.
/// - LT097: a service asked to shut down out of its group's order (``ServiceShutdownOrder``): before a service
///   started after it, or while the one asked before it had not returned.
///
/// Budgets are the configuration's, a service's own first (`services` in `lifetrace.json`, kept with the scenes'
/// by name).
///
/// It is the analyzer's one record of each service: its ``ServiceLife`` (start, readiness, shutdown request,
/// stop, error, cancellation), which the rules read and which, once its process ends, goes to ``log`` for the
/// summaries' service rows.
struct ServiceRules {
    /// What the trace showed of one service of the running process: its life (what summaries report) and what
    /// the rules need besides.
    private struct Service {
        var life: ServiceLife
        var successTermination: String?
        var failureTermination: String?
        var reportedWorkAfterStop = false
        /// Its position in its group (`group_index` on its start), and the order of its start in its process.
        var groupIndex: Int64?
        var startOrder = 0

        var name: String { life.name }
        /// Started and not stopped.
        var isLive: Bool { life.started != nil && life.stopped == nil }
        /// Asked to shut down and not stopped.
        var isStopping: Bool { life.shutdownAsked != nil && life.stopped == nil }
    }

    private let configuration: AnalysisConfiguration
    /// The running process's services, in the order they first appeared, and where each is by name.
    private var services: [Service] = []
    private var byName: [String: Int] = [:]
    /// A shutdown signal that came while services ran and none was stopping, and that no service's shutdown
    /// request or stop has followed yet: its name and time.
    private var unansweredSignal: (name: String, t: Int64)?
    /// When the process's shutdown began (its first signal, or its first service asked to shut down).
    private var shutdownBegan: Int64?
    /// The reason of the process's `process.exit`, once read.
    private var exitReason: String?
    /// The services started so far in the running process.
    private var starts = 0
    /// Whether the running process's group order can no longer be judged (LT097): it escalated to cancellation,
    /// or the recorder dropped events.
    private var groupOrderUnknown = false
    /// The processes ended so far.
    private var processesEnded = 0
    /// The services of the processes that ended since the log was last emptied; `nil` when nobody reads it.
    var log: [ServiceLife]?
    /// Each service's time in each phase, over the processes that ended, in the order services first appeared:
    /// the first ``TraceAnalyzer/keptDetails`` by name, the others summed as `(other services)`.
    private(set) var times: [ServiceTime] = []
    private var timesByName: [String: Int] = [:]

    init(configuration: AnalysisConfiguration) {
        self.configuration = configuration
    }

    /// The limit of `budget` for the service `name`: its own if the configuration sets one, `nil` when off.
    private func limit(_ budget: Budget, service name: String) -> Int64? {
        if let own = configuration.sceneBudgets[name]?[budget] { return own }
        return configuration.budget(budget)
    }

    private mutating func service(_ name: String) -> Int {
        if let i = byName[name] { return i }
        services.append(Service(life: ServiceLife(process: processesEnded + 1, name: name)))
        byName[name] = services.count - 1
        return services.count - 1
    }

    /// Reads one event of the trace, `block.records[row]`. Called for service traces alone: out of the analyzer's loop.
    @inline(never)
    mutating func consume(
        _ event: EventRecord, row: Int, of block: borrowing EventBlock, reports: inout [ModelEngine.Report]
    ) {
        switch event.kind {
        case .serviceStart, .serviceReady, .serviceShutdown, .serviceStopped:
            guard let name = block.string(event.scene) else { return }
            serviceEvent(event, name: name, at: service(name), of: block, reports: &reports)
        case .serviceSignal:
            let name = block.extras(of: event).flatMap { block.string($0.reason) } ?? "a signal"
            if shutdownBegan == nil { shutdownBegan = event.t }
            if unansweredSignal == nil, services.contains(where: \.isLive), !services.contains(where: \.isStopping) {
                unansweredSignal = (name, event.t)
            }
            if block.attribute(Attribute.Key.action, of: event) == .string("cancel") { groupOrderUnknown = true }
        case .processExit:
            exitReason = block.extras(of: event).flatMap { block.string($0.reason) }
        case .recorderDropped:
            groupOrderUnknown = true
        default:
            // A service's own events (its markers) after its stop; once per service.
            guard event.hasScene, let name = block.string(event.scene), let i = byName[name],
                let stopped = services[i].life.stopped,
                !services[i].reportedWorkAfterStop
            else { return }
            services[i].reportedWorkAfterStop = true
            reports.append(
                ModelEngine.Report(
                    rule: .serviceWorkAfterStop,
                    message:
                        "\(block.eventName(at: row)) for service \(name) \(Nanoseconds.short(event.t - stopped)) after it reported stopped",
                    scene: name))
        }
    }

    private mutating func serviceEvent(
        _ event: EventRecord, name: String, at i: Int, of block: borrowing EventBlock,
        reports: inout [ModelEngine.Report]
    ) {
        let t = event.t
        switch event.kind {
        case .serviceStart:
            guard services[i].life.started == nil else { return }
            services[i].life.started = t
            starts += 1
            services[i].startOrder = starts
            if case let .int(index)? = block.attribute(Attribute.Key.groupIndex, of: event) {
                services[i].groupIndex = index
            }
            if case let .string(behavior)? = block.attribute(Attribute.Key.successTermination, of: event) {
                services[i].successTermination = behavior
            }
            if case let .string(behavior)? = block.attribute(Attribute.Key.failureTermination, of: event) {
                services[i].failureTermination = behavior
            }
        case .serviceReady:
            if services[i].life.ready == nil { services[i].life.ready = t }
            guard let started = services[i].life.started, services[i].life.shutdownAsked == nil,
                services[i].life.stopped == nil,
                let budget = limit(.serviceReady, service: name), t - started > budget
            else { return }
            reports.append(
                ModelEngine.Report(
                    rule: .slowServiceReadiness,
                    message:
                        "service \(name) said it is ready \(Nanoseconds.short(t - started)) after its start, over its \(Nanoseconds.short(budget)) readiness budget",
                    scene: name, measured: t - started, budget: budget))
        case .serviceShutdown:
            if services[i].life.shutdownAsked == nil {
                services[i].life.shutdownAsked = t
                checkGroupOrder(asking: i, at: t, reports: &reports)
            }
            if shutdownBegan == nil { shutdownBegan = t }
            unansweredSignal = nil
        default:  // .serviceStopped
            guard services[i].life.stopped == nil else { return }
            services[i].life.stopped = t
            services[i].life.cancelled = block.attribute(Attribute.Key.cancelled, of: event) == .bool(true)
            if services[i].life.cancelled { groupOrderUnknown = true }
            if case let .string(error)? = block.attribute(Attribute.Key.error, of: event) {
                services[i].life.error = error
            }
            unansweredSignal = nil
            stopped(event, name: name, at: i, of: block, reports: &reports)
        }
    }

    /// Whether `a` started after `b` in their group: by their positions in it where both were recorded, else by
    /// the order of their starts.
    private static func started(_ a: Service, after b: Service) -> Bool {
        if let x = a.groupIndex, let y = b.groupIndex { return x > y }
        return a.startOrder > b.startOrder
    }

    /// The service `i` was asked to shut down at `t` (LT097): a group asks one service at a time, in reverse start
    /// order, each once the one asked before it returned. Not judged once the order is unknown (the group
    /// escalated to cancellation, events were dropped) or another order is configured.
    private func checkGroupOrder(asking i: Int, at t: Int64, reports: inout [ModelEngine.Report]) {
        guard configuration.serviceShutdownOrder == .reverseStart, !groupOrderUnknown, services[i].life.started != nil
        else { return }
        let asked = services[i]
        if let previous = services.indices.first(where: { $0 != i && services[$0].isStopping }).map({ services[$0] }) {
            reports.append(
                ModelEngine.Report(
                    rule: .serviceShutdownOutOfOrder,
                    message:
                        "service \(asked.name) was asked to shut down while service \(previous.name), asked \(Nanoseconds.short(t - previous.life.shutdownAsked!)) before, had not returned: a ServiceGroup asks the next service only once the previous one's run() returned",
                    scene: asked.name))
        } else if let later = services.first(where: {
            $0.isLive && $0.life.shutdownAsked == nil && Self.started($0, after: asked)
        }) {
            reports.append(
                ModelEngine.Report(
                    rule: .serviceShutdownOutOfOrder,
                    message:
                        "service \(asked.name) was asked to shut down before service \(later.name), started after it and still running: a ServiceGroup shuts its services down in reverse start order",
                    scene: asked.name))
        }
    }

    /// A service stopped: LT090 if it ended on its own, LT095 if it stopped only when cancelled after being asked.
    private func stopped(
        _ event: EventRecord, name: String, at i: Int, of block: borrowing EventBlock,
        reports: inout [ModelEngine.Report]
    ) {
        let service = services[i]
        let (cancelled, error) = (service.life.cancelled, service.life.error)
        if let asked = service.life.shutdownAsked {
            guard cancelled else { return }
            let after = event.t - asked
            reports.append(
                ModelEngine.Report(
                    rule: .shutdownNotActedOn,
                    message:
                        "service \(name) did not stop on its shutdown request: it stopped only when its group cancelled it, \(Nanoseconds.short(after)) later (maximumGracefulShutdownDuration or a cancellation signal)",
                    scene: name, measured: after))
            return
        }
        // Cancelled without being asked: its group (or a cancellation signal) ended it. Never started: the model's
        // (LT096).
        guard !cancelled, service.life.started != nil else { return }
        let behavior = error == nil ? service.successTermination : service.failureTermination
        let setting = error == nil ? "successTerminationBehavior" : "failureTerminationBehavior"
        let consequence: String
        switch behavior {
        case "ignore"?:
            return
        case "gracefullyShutdownGroup"? where error == nil:
            return
        case "gracefullyShutdownGroup"?:
            consequence =
                "its group then shuts the other services down gracefully and throws its error (\(setting) gracefullyShutdownGroup)"
        case "cancelGroup"?:
            consequence =
                "its group then cancels every other service, with no graceful shutdown (\(setting) cancelGroup)"
        default:
            consequence =
                "its group's \(setting) was not recorded; ServiceLifecycle's default, cancelGroup, cancels every other service with no graceful shutdown"
        }
        let how = error.map { "threw \($0)" } ?? "returned"
        reports.append(
            ModelEngine.Report(
                rule: .serviceEndedUnasked,
                message: "service \(name) \(how) while it ran, before any shutdown was asked: \(consequence)",
                scene: name))
    }

    private mutating func addTimes(_ added: ServiceTimes, of name: String) {
        let key = timesByName[name] != nil || timesByName.count < TraceAnalyzer.keptDetails ? name : "(other services)"
        if let i = timesByName[key] {
            times[i].times.add(added)
        } else {
            timesByName[key] = times.count
            times.append(ServiceTime(service: key, times: added))
        }
    }

    /// The running process ended at `end` (its exit, or its last event when no exit was read, `exitObserved`
    /// false): what was still open then.
    ///
    /// - Parameters:
    ///   - end: the process's exit, or its last event.
    ///   - goneBy: the latest the process may have lived: its exit, or, without one, its last event plus one
    ///     heartbeat interval when the recorder wrote heartbeats.
    mutating func processEnded(at end: Int64, goneBy: Int64, exitObserved: Bool, reports: inout [ModelEngine.Report]) {
        processesEnded += 1
        for service in services { addTimes(service.life.times(until: end), of: service.name) }
        defer {
            log?.append(contentsOf: services.lazy.map(\.life))
            services.removeAll()
            byName.removeAll()
            unansweredSignal = nil
            shutdownBegan = nil
            exitReason = nil
            starts = 0
            groupOrderUnknown = false
        }
        let stopping = services.filter(\.isStopping)
        for service in stopping {
            let elapsed = end - service.life.shutdownAsked!
            guard let grace = limit(.shutdownGrace, service: service.name), elapsed > grace else { continue }
            reports.append(
                ModelEngine.Report(
                    rule: .shutdownOverGrace,
                    message:
                        "service \(service.name) was still stopping \(Nanoseconds.short(elapsed)) after its shutdown was asked, at its process's \(exitObserved ? "exit" : "last event"): over its \(Nanoseconds.short(grace)) grace period",
                    scene: service.name, measured: elapsed, budget: grace))
        }
        // A kill ends whatever ran; it is a finding only once the shutdown had run past its grace period, when an
        // orchestrator's kill is due (an earlier one is someone else's, and says nothing of the services).
        let killed = !exitObserved || exitReason == "SIGKILL"
        let grace =
            stopping.compactMap { limit(.shutdownGrace, service: $0.name) }.max()
            ?? configuration.budget(.shutdownGrace)
        if killed, let began = shutdownBegan, !stopping.isEmpty || unansweredSignal != nil, let grace,
            goneBy - began >= grace
        {
            let names = stopping.map(\.name)
            let what =
                names.isEmpty
                ? "no service had been asked to shut down yet"
                : "\(Plural.noun(names.count, "service")) \(names.joined(separator: ", ")) "
                    + "\(Plural.noun(names.count, "was", plural: "were")) still stopping"
            let how = exitObserved ? "it was killed (SIGKILL)" : "no exit was recorded"
            reports.append(
                ModelEngine.Report(
                    rule: .killedDuringShutdown,
                    message:
                        "the process ended \(Nanoseconds.short(end - began)) into its shutdown and \(how): \(what)",
                    scene: names.first, measured: end - began))
        }
        // A signal is shown unanswered only by a process that went on past the grace period without acting on it.
        if let signal = unansweredSignal, let grace, end - signal.t >= grace {
            reports.append(
                ModelEngine.Report(
                    rule: .shutdownNotActedOn,
                    message:
                        "\(signal.name) was never acted on: no service was asked to shut down, nor stopped, in the \(Nanoseconds.short(end - signal.t)) to its process's \(exitObserved ? "exit" : "last event")",
                    scene: nil, measured: end - signal.t))
        }
    }
}
