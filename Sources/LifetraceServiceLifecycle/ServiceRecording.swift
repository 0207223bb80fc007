import LifetraceConcurrency
public import LifetraceCore
import LifetraceRecorder

/// What a running service says of itself, recorded for it into its process's trace: the calls a service may
/// make from its `run()` (or any task it starts, which inherits the service) while a ``RecordedService`` (every
/// service of a ``RecordedServiceGroup``) runs it. Outside one they do nothing.
///
/// ```swift
/// func run() async throws {
///     let server = try await bind()
///     ServiceRecording.ready()          // listening: ready to serve
///     try await server.serve()
/// }
/// ```
public enum ServiceRecording {
    /// The service the current task runs for, and where its events go.
    struct Current: Sendable {
        var name: String
        var recorder: Recorder
    }

    @TaskLocal static var current: Current?

    /// Records that the current service is ready to serve (`service.ready`): once, when it is (listening, warmed
    /// up), as it would tell systemd `READY=1` or make its readiness probe pass. `lifetrace check` measures its
    /// start-up from its start to this call (LT094, the `serviceReady` budget); a service that never calls it is
    /// not judged.
    public static func ready() {
        guard let current else { return }
        current.recorder.record(.serviceReady, scene: current.name)
    }

    /// Records a marker of the current service's work, `custom.<label>`, with the service's name as its scene:
    /// on the service's lane in reports, and a finding (LT092) if it comes after the service stopped.
    public static func mark(_ label: String, attrs: [Attribute]? = nil) {
        guard let current else { return }
        current.recorder.mark(label, scene: current.name, attrs: attrs)
    }

    /// The name of the service the current task runs for, if any.
    public static var serviceName: String? {
        current?.name
    }
}

/// The signal that started a group's graceful shutdown, shared by the group's services: set once, before the
/// group is asked to shut down, so that each service's `service.shutdown` names it.
final class ShutdownSignal: Sendable {
    private let signal = LockedValue<String?>(nil)

    /// The signal's name (`SIGTERM`), once one started the shutdown.
    var name: String? {
        signal.withLock { $0 }
    }

    /// Notes that `name` started the shutdown, unless one did already.
    func note(_ name: String) {
        signal.withLock { if $0 == nil { $0 = name } }
    }
}
