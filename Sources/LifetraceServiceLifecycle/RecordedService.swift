import LifetraceCore
public import LifetraceRecorder
public import ServiceLifecycle

/// A service whose lifecycle is recorded: it runs the service it wraps, unchanged, and records under the
/// service's name when its run begins (`service.start`), when its group's graceful shutdown reaches it
/// (`service.shutdown`, with the signal that started the group's shutdown when one did), and when its run returns
/// or throws (`service.stopped`, with how long it ran, the error, and whether its task had been cancelled by then).
/// While it runs, ``ServiceRecording/ready()`` and ``ServiceRecording/mark(_:attrs:)`` record for it.
///
/// ``RecordedServiceGroup`` wraps each service of its group in one; wrap a service yourself to record it in a
/// group you run otherwise:
///
/// ```swift
/// let recorder = try Recorder.start(.service())
/// let group = ServiceGroup(configuration: ServiceGroupConfiguration(
///     services: [.init(service: RecordedService(server, name: "http", recorder: recorder))],
///     gracefulShutdownSignals: [.sigterm], logger: logger))
/// ```
public struct RecordedService: Service {
    /// The service it runs.
    public let service: any Service
    /// The service's name: the scene of its events, and its name in `lifetrace.json`'s `services`.
    public let name: String
    /// The recorder its events go to.
    public let recorder: Recorder
    /// What its group does when its run returns and when it throws (recorded on `service.start`).
    let successTermination: String?
    let failureTermination: String?
    /// The signal that started its group's shutdown, once one did.
    let signals: ShutdownSignal
    /// Its position in its group's configuration, where its group is a ``RecordedServiceGroup`` (recorded on
    /// `service.start`: the group shuts its services down in reverse of it).
    let groupIndex: Int?

    /// Records `service` under `name` into `recorder`.
    public init(_ service: any Service, name: String, recorder: Recorder) {
        self.init(
            service, name: name, recorder: recorder, successTermination: nil, failureTermination: nil,
            signals: ShutdownSignal(), groupIndex: nil)
    }

    init(
        _ service: any Service, name: String, recorder: Recorder, successTermination: String?,
        failureTermination: String?,
        signals: ShutdownSignal, groupIndex: Int?
    ) {
        self.service = service
        self.name = name
        self.recorder = recorder
        self.successTermination = successTermination
        self.failureTermination = failureTermination
        self.signals = signals
        self.groupIndex = groupIndex
    }

    /// Runs the service, recording its lifecycle; returns or throws as it does.
    public func run() async throws {
        let start = recorder.now()
        var attrs: [Attribute] = []
        if let successTermination {
            attrs.append(Attribute(Attribute.Key.successTermination, .string(successTermination)))
        }
        if let failureTermination {
            attrs.append(Attribute(Attribute.Key.failureTermination, .string(failureTermination)))
        }
        if let groupIndex { attrs.append(Attribute(Attribute.Key.groupIndex, .int(Int64(groupIndex)))) }
        recorder.record(.serviceStart, scene: name, attrs: attrs.isEmpty ? nil : attrs)
        let name = name
        let recorder = recorder
        let signals = signals
        do {
            try await ServiceRecording.$current.withValue(ServiceRecording.Current(name: name, recorder: recorder)) {
                try await withGracefulShutdownHandler {
                    try await service.run()
                } onGracefulShutdown: {
                    recorder.record(.serviceShutdown, scene: name, reason: signals.name)
                    // On disk at once: an orchestrator may kill the process before the next flush.
                    recorder.flushSoon()
                }
            }
        } catch {
            stopped(start: start, error: error)
            throw error
        }
        stopped(start: start, error: nil)
    }

    /// Records the service's stop, and writes it out at once.
    private func stopped(start: Int64, error: (any Error)?) {
        var attrs = [Attribute(Attribute.Key.ranNanoseconds, .int(max(0, recorder.now() - start)))]
        if let error { attrs.append(Attribute(Attribute.Key.error, .string(Self.describe(error)))) }
        if Task.isCancelled { attrs.append(Attribute(Attribute.Key.cancelled, .bool(true))) }
        recorder.record(.serviceStopped, scene: name, attrs: attrs)
        recorder.flushSoon()
    }

    /// The longest error description recorded, in characters.
    static let maxErrorLength = 200

    /// `error` as text, cut to ``maxErrorLength`` characters.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.count > maxErrorLength ? String(text.prefix(maxErrorLength)) + "…" : text
    }
}

extension RecordedService: CustomStringConvertible {
    /// The service's name.
    public var description: String { name }
}
