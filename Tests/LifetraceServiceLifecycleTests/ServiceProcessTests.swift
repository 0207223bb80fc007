import Foundation
import LifetraceTestSupport
import Testing

@testable import lifetrace

/// The built executables of the package: beside the test bundle in the build directory.
enum BuiltProduct {
    static func path(_ name: String) -> String {
        var candidates: [URL] = []
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(argument0.deletingLastPathComponent().appendingPathComponent(name))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(URL(fileURLWithPath: PackagePaths.path(".build/debug/\(name)")))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
            ?? candidates[candidates.count - 1].path
    }
}

/// The example service (Examples/ServiceExample) as a real process, sent SIGTERM as an orchestrator sends it — and
/// SIGKILL once the grace period is over — and its trace checked by `lifetrace check` (in process): a drain within the
/// grace period checks clean; one that overruns it is reported with the rule and the overrun, measured to within
/// the recorder's flush interval; a service that ignores the request, or ends on its own, is reported as such.
@Suite(.serialized, .integration) struct ServiceProcessTests {
    let directory = TemporaryDirectory()
    /// The example's flush and heartbeat interval.
    static let flush: Int64 = 100_000_000

    /// A running example service.
    final class RunningService: @unchecked Sendable {
        let process = Process()
        let trace: String
        private let stdout: OutputWatcher

        /// The example with `arguments`, recording into `trace`; with `recordedTo`, run under
        /// `lifetrace record -o recordedTo --`, printing its events as JSON Lines (`LIFETRACE_MIRROR=stdout`).
        init(arguments: [String], trace: String, recordedTo recording: String? = nil) throws {
            self.trace = trace
            let pipe = Pipe()
            stdout = OutputWatcher(pipe)
            let service =
                [BuiltProduct.path("ServiceExample")] + arguments + [
                    "--flush", "\(ServiceProcessTests.flush / 1_000_000)ms",
                ]
            var environment = ProcessInfo.processInfo.environment
            if let recording {
                process.executableURL = URL(fileURLWithPath: BuiltProduct.path("lifetrace"))
                process.arguments = ["record", "-o", recording, "--flush-interval", "100ms", "--"] + service
                environment["LIFETRACE_MIRROR"] = "stdout"
            } else {
                process.executableURL = URL(fileURLWithPath: service[0])
                process.arguments = Array(service.dropFirst())
            }
            environment["LIFETRACE_PATH"] = trace
            process.environment = environment
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Waits until the worker says it is ready (its "ready" line).
        func waitUntilReady() throws {
            do {
                try stdout.waitForLine("ready")
            } catch {
                throw ServiceTestError(description: "the example service never said it is ready (\(error))")
            }
        }

        func signal(_ number: Int32) {
            kill(process.processIdentifier, number)
        }

        /// Waits for the process to end; its status (128 + the signal for a signal).
        func wait() -> Int32 {
            process.waitUntilExit()
            return process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
        }
    }

    struct ServiceTestError: Error, CustomStringConvertible {
        var description: String
    }

    /// `lifetrace check --format json` of `trace`: its exit status and findings (rule, scene, measured, budget).
    func check(_ trace: String, config: String? = nil) throws -> (status: Int32, findings: [[String: Any]]) {
        var arguments = ["check", "--format", "json", trace]
        if let config { arguments += ["--config", directory.write("lifetrace.json", text: config)] }
        let result = try Self.lifetrace(arguments)
        var findings: [[String: Any]] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if object["rule"] is String, object["severity"] is String { findings.append(object) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
        return (result.status, findings)
    }

    func dump(_ trace: String) throws -> String {
        try Self.lifetrace(["dump", trace]).stdout
    }

    /// The `lifetrace` command `arguments` name, run in this process (the trace it reads is the process's own).
    static func lifetrace(_ arguments: [String]) throws -> ShellResult {
        try runInProcess { input, output, error in
            Lifetrace.run(arguments, on: Console(input: input, output: output, error: error))
        }
    }

    /// SIGTERM after the services are ready: the worker drains 200 ms, well within its grace period, the group
    /// shuts http down after it, the process exits 0 and its trace checks clean.
    @Test func aDrainWithinTheGracePeriodChecksClean() throws {
        let trace = directory.file("clean.lifetrace")
        let service = try RunningService(arguments: ["--drain", "200ms"], trace: trace)
        try service.waitUntilReady()
        service.signal(SIGTERM)
        #expect(service.wait() == 0)
        let checked = try check(trace, config: #"{"services": {"worker": {"budgets": {"shutdownGrace": "2s"}}}}"#)
        #expect(checked.status == 0, "\(checked.findings)")
        #expect(checked.findings.isEmpty)
        let events = try dump(trace)
        #expect(events.contains(#""ev":"service.signal","reason":"SIGTERM","attrs":{"action":"graceful-shutdown"}"#))
        #expect(events.contains(#""ev":"service.shutdown","scene":"worker","reason":"SIGTERM"}"#))
        #expect(events.contains(#""ev":"process.exit","reason":"exit"}"#))
        #expect(events.contains(#""lifecycle":"service""#))
    }

    /// The worker drains for 30 s; its grace period is 500 ms. Like Kubernetes at the end of the grace period, the
    /// test kills the process with SIGKILL 1.2 s after SIGTERM: the check reports the overrun (LT091), measured from
    /// the shutdown request to the process's last sign of life — the kill to within the flush interval — and the
    /// kill during the shutdown (LT093).
    @Test func aDrainOverItsGracePeriodIsReportedWithTheOverrun() throws {
        let trace = directory.file("overrun.lifetrace")
        let service = try RunningService(arguments: ["--drain", "30s"], trace: trace)
        try service.waitUntilReady()
        let terminated = DispatchTime.now().uptimeNanoseconds
        service.signal(SIGTERM)
        Thread.sleep(forTimeInterval: 1.2)
        let killed = DispatchTime.now().uptimeNanoseconds
        service.signal(SIGKILL)
        #expect(service.wait() == 128 + SIGKILL)
        let actual = Int64(killed - terminated)
        let checked = try check(trace, config: #"{"services": {"worker": {"budgets": {"shutdownGrace": "500ms"}}}}"#)
        #expect(checked.status == 1)
        #expect(checked.findings.map { $0["rule"] as? String } == ["LT091", "LT093"], "\(checked.findings)")
        let overrun = try #require(checked.findings.first)
        #expect(overrun["scene"] as? String == "worker")
        #expect(overrun["budget_ns"] as? Int64 == 500_000_000 || (overrun["budget_ns"] as? Int) == 500_000_000)
        let measured = try #require((overrun["measured_ns"] as? NSNumber)?.int64Value)
        // The last heartbeat before the kill is at most one interval (and a timer's delay) before it; the request is
        // recorded as the signal arrives.
        #expect(measured <= actual + 20_000_000, "measured \(measured) ns, killed \(actual) ns after SIGTERM")
        #expect(
            measured >= actual - Self.flush - 150_000_000, "measured \(measured) ns, killed \(actual) ns after SIGTERM")
        #expect((checked.findings[1]["message"] as? String)?.contains("service worker was still stopping") == true)
    }

    // MARK: - Under lifetrace record

    /// The service's lifecycle events, in order, without their times: `ev scene reason` per line.
    func lifecycle(_ trace: String) throws -> [String] {
        try dump(trace).split(separator: "\n").dropFirst().compactMap { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = event["ev"] as? String ?? ""
            guard name.hasPrefix("service.") || name.hasPrefix("process.") else { return nil }
            return [name, event["scene"] as? String, event["reason"] as? String].compactMap { $0 }.joined(
                separator: " ")
        }
    }

    /// The second route: the example prints its events (`LIFETRACE_MIRROR=stdout`) and `lifetrace record -- ...`
    /// writes the trace. SIGTERM to record, as an orchestrator sends it to the container's first process, is passed
    /// on; record goes on through the drain until the service exits, and exits with its status. Its trace holds the
    /// lifecycle the service's own file holds, and checks clean.
    @Test func underRecordTheDrainIsRecordedToItsEnd() throws {
        let own = directory.file("own.lifetrace")
        let recorded = directory.file("recorded.lifetrace")
        let service = try RunningService(arguments: ["--drain", "300ms"], trace: own, recordedTo: recorded)
        try service.waitUntilReady()
        service.signal(SIGTERM)
        #expect(service.wait() == 0)
        let checked = try check(recorded, config: #"{"services": {"worker": {"budgets": {"shutdownGrace": "2s"}}}}"#)
        #expect(checked.status == 0 && checked.findings.isEmpty, "\(checked.findings)")
        let events = try lifecycle(recorded)
        // The same events. Two services starting at once may come in either order: the printed lines follow the
        // calls, the file the times; the shutdown, one service after the other, is checked in order below.
        #expect(events.sorted() == (try lifecycle(own)).sorted())
        #expect(
            events.suffix(6) == [
                "service.signal SIGTERM", "service.shutdown worker SIGTERM", "service.stopped worker",
                "service.shutdown http SIGTERM", "service.stopped http", "process.exit exit",
            ])
        #expect(try dump(recorded).contains(#""lifecycle":"service""#))
    }

    /// Under record, the kill of the service mid-drain loses nothing it had printed: record outlives it, writes
    /// the trace to the service's last line and exits with 128 + SIGKILL. The check reports the overrun and the kill.
    @Test func underRecordAKillMidDrainIsReported() throws {
        let own = directory.file("own-killed.lifetrace")
        let recorded = directory.file("recorded-killed.lifetrace")
        let service = try RunningService(arguments: ["--drain", "30s"], trace: own, recordedTo: recorded)
        try service.waitUntilReady()
        // The service's process id, from its launch event (in its own file once the first flush is written).
        var launchLine: Substring?
        for _ in 0..<100 where launchLine == nil {
            launchLine = try dump(own).split(separator: "\n").first { $0.contains("process.launch") }
            if launchLine == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let launch = try #require(launchLine)
        let pid = try #require(Int32(launch.split(separator: "\"pid\":")[1].prefix { $0.isNumber }))
        service.signal(SIGTERM)
        Thread.sleep(forTimeInterval: 1.2)
        kill(pid, SIGKILL)
        #expect(service.wait() == 128 + SIGKILL)
        let checked = try check(recorded, config: #"{"services": {"worker": {"budgets": {"shutdownGrace": "500ms"}}}}"#)
        #expect(checked.status == 1)
        #expect(checked.findings.map { $0["rule"] as? String } == ["LT091", "LT093"], "\(checked.findings)")
        let measured = try #require((checked.findings.first?["measured_ns"] as? NSNumber)?.int64Value)
        #expect(measured >= 1_200_000_000 - Self.flush - 150_000_000 && measured < 10_000_000_000, "\(measured)")
    }

    /// The worker never looks at graceful shutdown; the group's maximumGracefulShutdownDuration (300 ms) cancels
    /// it: the process exits on its own, and the check says the worker did not act on its shutdown request.
    @Test func aServiceThatIgnoresTheSignalIsReported() throws {
        let trace = directory.file("ignoring.lifetrace")
        let service = try RunningService(arguments: ["--ignore-shutdown", "--max-graceful", "300ms"], trace: trace)
        try service.waitUntilReady()
        service.signal(SIGTERM)
        // The group rethrows the worker's CancellationError: the example exits 1.
        #expect(service.wait() == 1)
        let checked = try check(trace)
        #expect(checked.findings.map { $0["rule"] as? String } == ["LT095"], "\(checked.findings)")
        #expect(checked.findings.first?["scene"] as? String == "worker")
        let after = try #require((checked.findings.first?["measured_ns"] as? NSNumber)?.int64Value)
        // The group starts its 300 ms before it calls the worker's graceful-shutdown handler, which records
        // `service.shutdown`: the span from that event to the stop is the 300 ms less the handler's delay (299.65 ms
        // in one run), never the instant cancel of a group that does not wait.
        #expect(after >= 250_000_000 && after < 5_000_000_000, "\(after)")
    }

    /// The worker returns on its own 100 ms after it is ready: the group cancels http and the process exits 1; the
    /// check says the worker ended before a shutdown was asked.
    @Test func aServiceThatEndsOnItsOwnIsReported() throws {
        let trace = directory.file("early.lifetrace")
        let service = try RunningService(arguments: ["--exit-after", "100ms"], trace: trace)
        #expect(service.wait() == 1)
        let checked = try check(trace)
        #expect(checked.findings.map { $0["rule"] as? String } == ["LT090"], "\(checked.findings)")
        #expect((checked.findings.first?["message"] as? String)?.contains("cancels every other service") == true)
    }
}
