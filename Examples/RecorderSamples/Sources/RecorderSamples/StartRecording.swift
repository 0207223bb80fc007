import Foundation
import LifetraceRecorder

/// Where an app starts recording: its app delegate's (or SwiftUI `App`'s) initializer, on the main thread.
enum StartRecording {
    static func inTheAppDelegatesInit() {
        // README: start
        // In the app delegate's (or SwiftUI App's) init: one trace per launch, in Application Support/lifetrace.
        _ = try? Recorder.start()  // a failure is also said in the unified log
        // README: end
    }

    static func forUITests() {
        // README: ui-tests
        // Or only when a UI test asks for it, into the trace LIFETRACE_PATH names:
        Recorder.fromEnvironment()
        // README: end
    }

    static func withOptions() throws {
        // README: options
        var options = RecordingOptions(metadata: ["app_version": "2.3", "build": "417"])
        options.configuration.heartbeatInterval = .seconds(1)
        options.destination = .directory(TraceDestination.standardDirectory, retention: TraceRetention(maxCount: 10))
        let recorder = try Recorder.start(options)
        recorder.mark("first-frame")
        // README: end
    }

    static func lastSession() {
        // README: previous
        // At the next launch: how did the last session end?
        if let previous = Recorder.previousTrace() {
            print("last session: \(previous.url.path), \(previous.byteCount) bytes")
        }
        // README: end
    }
}
