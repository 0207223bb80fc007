import LifetraceCore
import LifetraceFormat

/// The start-up and shutdown of each service of each process of a trace, for `summarize`'s service rows: when a
/// service started, how long it took to say it was ready, and how long its shutdown took, from the request its
/// group made to its stop (the time an orchestrator's grace period bounds).
///
/// Processes are counted as the analyzer counts them: a `process.launch`, or any event after an exit, starts one;
/// a `process.exit` ends it. A service's times are passed on when its process ends, so that what is kept never
/// grows beyond the services of one process.
struct ServiceTimes {
    /// One service of one process.
    struct Service {
        /// The process's number in the trace, from 1.
        var process: Int
        /// The service's name.
        var name: String
        /// When its `service.start` came, if it did.
        var started: Int64?
        /// When it said it was ready.
        var ready: Int64?
        /// When its group asked it to shut down.
        var shutdownAsked: Int64?
        /// When it stopped.
        var stopped: Int64?
        /// The error it threw, if it did.
        var error: String?
        /// Whether its task had been cancelled when it stopped.
        var cancelled = false

        /// From its start to its readiness.
        var readyDuration: Int64? { started.flatMap { start in ready.map { $0 &- start } } }
        /// From its shutdown request to its stop.
        var shutdownDuration: Int64? { shutdownAsked.flatMap { asked in stopped.map { $0 &- asked } } }
    }

    private var process = 0
    private var alive = false
    private var services: [Service] = []

    /// Reads the events of `block`, passing each service of a process that ended to `emit`.
    mutating func consume(_ block: borrowing EventBlock, _ emit: (Service) -> Void) {
        for record in block.records {
            if record.kind == .processLaunch || !alive {
                finishProcess(emit)
                process += 1
                alive = true
            }
            switch record.kind {
            case .serviceStart, .serviceReady, .serviceShutdown, .serviceStopped:
                guard let name = block.string(record.scene) else { continue }
                let i = services.firstIndex { $0.name == name } ?? {
                    services.append(Service(process: process, name: name))
                    return services.count - 1
                }()
                note(record, of: block, at: i)
            case .processExit:
                finishProcess(emit)
                alive = false
            default:
                continue
            }
        }
    }

    /// The trace ended: passes on the services of its last process.
    mutating func finish(_ emit: (Service) -> Void) {
        finishProcess(emit)
        process = 0
        alive = false
    }

    private mutating func note(_ record: EventRecord, of block: borrowing EventBlock, at i: Int) {
        let t = record.t
        switch record.kind {
        case .serviceStart: if services[i].started == nil { services[i].started = t }
        case .serviceReady: if services[i].ready == nil { services[i].ready = t }
        case .serviceShutdown: if services[i].shutdownAsked == nil { services[i].shutdownAsked = t }
        default:
            guard services[i].stopped == nil else { return }
            services[i].stopped = t
            if case let .string(error)? = block.attribute(Attribute.Key.error, of: record) { services[i].error = error }
            services[i].cancelled = block.attribute(Attribute.Key.cancelled, of: record) == .bool(true)
        }
    }

    private mutating func finishProcess(_ emit: (Service) -> Void) {
        for service in services { emit(service) }
        services.removeAll(keepingCapacity: true)
    }
}
