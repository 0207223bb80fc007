import Foundation
import LifetraceConcurrency
import LifetraceRecorder
import LifetraceServiceLifecycle
import Logging
import ServiceLifecycle
import Testing

/// The trace never decides how the services end: one that cannot be created leaves them to run unrecorded, and
/// the failure is logged through the group's logger. (In RecordedServiceGroupTests, which run on their own.)
extension RecordedServiceGroupTests {
    /// The messages logged at `error` and above.
    final class Errors: Sendable {
        private let messages = LockedValue<[String]>([])
        var logged: [String] { messages.withLock { $0 } }
        func add(_ message: String) { messages.withLock { $0.append(message) } }
    }

    struct CollectingHandler: LogHandler {
        let errors: Errors
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            if event.level >= .error { errors.add("\(event.message) \(event.metadata?["error"] ?? "")") }
        }
    }

    @Test func aTraceThatCannotBeCreatedLeavesTheServicesRunning() async throws {
        let errors = Errors()
        let logger = Logger(label: "lifetrace-tests") { _ in CollectingHandler(errors: errors) }
        let milestones = Milestones()
        // A path under a file: no trace can be created there, whoever runs the test.
        let recording = RecordingOptions(destination: .file(URL(fileURLWithPath: "/dev/null/trace.lifetrace")))
        let configuration = ServiceGroupConfiguration(
            services: [.init(service: DrainingService(milestones: milestones), serviceName: "http")], logger: logger)
        let group = RecordedServiceGroup(configuration: configuration, recording: recording)
        try await RecordedServiceGroupTests.runAndShutDown(group, after: 1, of: milestones)
        #expect(Recorder.shared == nil)
        #expect(errors.logged.count == 1)
        #expect(
            errors.logged.first?.hasPrefix("lifetrace: no trace: the services run unrecorded /dev/null: cannot create")
                == true,
            "\(errors.logged)")
    }
}
