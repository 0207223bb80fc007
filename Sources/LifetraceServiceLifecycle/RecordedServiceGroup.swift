import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
public import LifetraceRecorder
import Logging
public import ServiceLifecycle
import UnixSignals

/// A `ServiceGroup` whose services' lifecycles are recorded into the process's trace: the group a service process
/// runs, with its configuration unchanged.
///
/// ```swift
/// let configuration = ServiceGroupConfiguration(
///     services: [
///         .init(service: database, serviceName: "database"),
///         .init(service: server, serviceName: "http"),
///     ],
///     gracefulShutdownSignals: [.sigterm], cancellationSignals: [.sigint], logger: logger)
/// try await RecordedServiceGroup(configuration: configuration).run()
/// ```
///
/// Each service runs in a ``RecordedService`` named by its configuration's `serviceName` (a service's type name by
/// default: name your services), which records its start, its graceful shutdown request and its stop. The group
/// handles its configuration's signals itself, as `ServiceGroup` does — a graceful-shutdown signal shuts the
/// services down gracefully, in reverse start order; a cancellation signal cancels them — and records each signal
/// (`service.signal`) before acting on it, so that the trace says which signal started a shutdown. When the group's
/// run returns or throws it records the process's exit (`process.exit`, reason `exit`, or `error` with the error)
/// and writes everything: it stops the recorder it started, or flushes the one the process had started.
///
/// `run()` starts the process's recorder (`Recorder.start(_:)`) with the options it was given, unless one runs
/// already, in which case it records into that one. The trace never decides how the services end: one that cannot
/// be created (a read-only file system) leaves the services to run unrecorded, and one that cannot be written
/// whole at the end leaves the group's outcome as it was; either is logged at `error` through the
/// configuration's logger.
public final class RecordedServiceGroup: Sendable {
    private let group: ServiceGroup
    private let recording: RecordingOptions
    private let gracefulShutdownSignals: [UnixSignal]
    private let cancellationSignals: [UnixSignal]
    private let signal: ShutdownSignal
    /// The recorder the services record into, made before the group runs.
    private let recorder: Recorder?
    /// The configuration's logger, which says what became of the trace when it failed.
    private let logger: Logger

    /// A group of `configuration`'s services, recorded with `recording` when it runs.
    ///
    /// - Parameter recording: how the process's recorder is started if it is not running when the group runs:
    ///   by default `RecordingOptions.service()`.
    public convenience init(configuration: ServiceGroupConfiguration, recording: RecordingOptions = .service()) {
        self.init(configuration: configuration, recording: recording, recorder: nil)
    }

    /// A group of `configuration`'s services that records into `recorder`, which the caller started and closes.
    public convenience init(configuration: ServiceGroupConfiguration, recorder: Recorder) {
        self.init(configuration: configuration, recording: .service(), recorder: recorder)
    }

    private init(configuration: ServiceGroupConfiguration, recording: RecordingOptions, recorder: Recorder?) {
        precondition(
            Set(configuration.gracefulShutdownSignals).isDisjoint(with: configuration.cancellationSignals),
            "Overlapping graceful shutdown and cancellation signals")
        self.recording = recording
        self.recorder = recorder
        logger = configuration.logger
        gracefulShutdownSignals = configuration.gracefulShutdownSignals
        cancellationSignals = configuration.cancellationSignals
        let signal = ShutdownSignal()
        self.signal = signal
        // The services' recorder is known only when the group runs (it starts the process's): each service reads it
        // then, through a box the group fills.
        let box = RecorderBox(recorder)
        self.box = box
        var inner = configuration
        // The group receives the signals here, records them, then does what `ServiceGroup` would.
        inner.gracefulShutdownSignals = []
        inner.cancellationSignals = []
        // Each service's position in the group, recorded on its start: the group shuts the services down in
        // reverse of it, which the order of their starts (concurrent child tasks) need not show.
        inner.services = configuration.services.enumerated().map { index, service in
            ServiceGroupConfiguration.ServiceConfiguration(
                service: DeferredRecordedService(
                    service: service.service, name: service.serviceName, box: box,
                    successTermination: service.successTerminationBehavior.description,
                    failureTermination: service.failureTerminationBehavior.description, signal: signal,
                    groupIndex: index),
                successTerminationBehavior: service.successTerminationBehavior,
                failureTerminationBehavior: service.failureTerminationBehavior,
                serviceName: service.serviceName)
        }
        group = ServiceGroup(configuration: inner)
    }

    private let box: RecorderBox

    /// Triggers the graceful shutdown of the group's services, as `ServiceGroup.triggerGracefulShutdown()` does.
    public func triggerGracefulShutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// Runs the services until they have all stopped, recording their lifecycles and the signals; then records the
    /// process's exit and writes the trace out. Returns or throws as `ServiceGroup.run()` does.
    ///
    /// - Throws: what the group throws, and nothing else: a trace that fails is logged (see above).
    public func run() async throws {
        let recorder: Recorder?
        let owned: Bool
        if let given = self.recorder ?? Recorder.shared {
            recorder = given
            owned = false
        } else {
            do {
                // Created now, not on the writer queue as for an app: a trace that cannot be created is logged here.
                recorder = try Recorder.start(recording, createsFileLater: false)
            } catch {
                logger.error("lifetrace: no trace: the services run unrecorded", metadata: ["error": "\(error)"])
                recorder = nil
            }
            owned = recorder != nil
        }
        if let recorder { box.set(recorder) }
        let signals = await UnixSignalsSequence(trapping: gracefulShutdownSignals + cancellationSignals)
        let group = group
        let run = Task { try await group.run() }
        let graceful = Set(gracefulShutdownSignals)
        let signal = signal
        let listener = Task {
            for await received in signals {
                let shutsDown = graceful.contains(received)
                if shutsDown { signal.note(received.description) }
                recorder?.record(
                    .serviceSignal, reason: received.description,
                    attrs: [Attribute(Attribute.Key.action, .string(shutsDown ? "graceful-shutdown" : "cancel"))])
                recorder?.flushSoon()
                if shutsDown {
                    await group.triggerGracefulShutdown()
                } else {
                    run.cancel()
                }
            }
        }
        let result = await withTaskCancellationHandler {
            await run.result
        } onCancel: {
            run.cancel()
        }
        listener.cancel()
        if let recorder {
            switch result {
            case .success:
                recorder.record(.processExit, reason: "exit")
            case let .failure(error):
                recorder.record(
                    .processExit, reason: "error",
                    attrs: [Attribute(Attribute.Key.error, .string(RecordedService.describe(error)))])
            }
            do {
                if owned { try Recorder.stop() } else { try recorder.flush() }
            } catch {
                logger.error("lifetrace: the trace's last events could not be written", metadata: ["error": "\(error)"])
            }
        }
        try result.get()
    }
}

/// Where a group's services find the recorder, which the group starts when it runs.
final class RecorderBox: Sendable {
    private let recorder: LockedValue<Recorder?>

    init(_ recorder: Recorder?) {
        self.recorder = LockedValue(recorder)
    }

    var value: Recorder? {
        recorder.withLock { $0 }
    }

    func set(_ value: Recorder) {
        recorder.withLock { $0 = value }
    }
}

/// A group's service, recorded by the recorder its group runs with.
struct DeferredRecordedService: Service, CustomStringConvertible {
    let service: any Service
    let name: String
    let box: RecorderBox
    let successTermination: String
    let failureTermination: String
    let signal: ShutdownSignal
    let groupIndex: Int

    var description: String { name }

    func run() async throws {
        guard let recorder = box.value else { return try await service.run() }
        try await RecordedService(
            service, name: name, recorder: recorder, successTermination: successTermination,
            failureTermination: failureTermination, signals: signal, groupIndex: groupIndex
        ).run()
    }
}
