public import Foundation
public import LifetraceCore
public import LifetraceRecorder

extension RecordingOptions {
    /// The options of a service process: its trace follows the service lifecycle (`"lifecycle": "service"`, judged
    /// by the service model and none of the app models), captures no app notifications, and writes a heartbeat
    /// every flush interval, so that the last sign of life of a process killed with SIGKILL is within one interval
    /// of the kill: a shutdown the kill cut short is measured to within it.
    ///
    /// - Parameters:
    ///   - destination: where the trace goes: by default what `LIFETRACE_PATH` names (a file, or a directory if it
    ///     ends with `/`; relative to the current directory), else a new file per run in
    ///     `TraceDestination.standardDirectory` (`$XDG_STATE_HOME/lifetrace`, or `~/.local/state/lifetrace`, on
    ///     Linux).
    ///   - name: the service process's name, for the header's `app` and the files' names.
    ///   - metadata: other header members (`["build": "417"]`).
    ///   - flushInterval: how often buffered events are written, and heartbeats recorded.
    ///   - environment: where `LIFETRACE_PATH` and `LIFETRACE_MIRROR` are read: the process's environment
    ///     (`LIFETRACE_MIRROR=stdout` also prints each event as lifetrace JSON Lines, for `lifetrace record -- COMMAND`).
    public static func service(
        destination: TraceDestination? = nil,
        name: String = ProcessInfo.processInfo.processName,
        metadata: TraceMetadata = [:],
        flushInterval: Duration = .seconds(1),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> RecordingOptions {
        let fromEnvironment = environment[Recorder.EnvironmentKey.path].flatMap {
            $0.isEmpty ? nil : TraceDestination.path($0)
        }
        var configuration = RecorderConfiguration(flushInterval: flushInterval, heartbeatInterval: flushInterval)
        configuration.mirror =
            RecorderConfiguration.LogMirror(environmentValue: environment[Recorder.EnvironmentKey.mirror]) ?? .none
        return RecordingOptions(
            destination: destination ?? fromEnvironment ?? .standard, app: name, sceneManifest: nil,
            lifecycle: .service,
            metadata: metadata,
            configuration: configuration,
            capturesLifecycle: false)
    }
}
