import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReport

/// A service's events (what `LifetraceServiceLifecycle` records under swift-service-lifecycle) are drawn on a lane
/// of their own per service, named after it, in both formats, and its states (as the HTML report draws them) as
/// slices on a `service NAME state` lane; the process's own events (its launch, the signal, its exit) stay on its
/// events lane.
@Suite struct ServiceExportTests {
    let directory = TemporaryDirectory()

    /// Two services of one process, as the rolling-deploy scenario records them, written by hand.
    static let serviceTrace = """
        {"lifetrace":1,"clock":"continuous","app":"example-service","lifecycle":"service"}
        {"t":0,"ev":"process.launch","reason":"unknown","pid":8926}
        {"t":16293571,"ev":"service.start","scene":"http","attrs":{"success_termination":"cancelGroup"}}
        {"t":17057483,"ev":"service.start","scene":"worker"}
        {"t":28422751,"ev":"service.ready","scene":"http"}
        {"t":693560146,"ev":"service.ready","scene":"worker"}
        {"t":21240393022,"ev":"custom.job","scene":"worker"}
        {"t":26553625146,"ev":"custom.job","scene":"worker"}
        {"t":95705474935,"ev":"service.signal","reason":"SIGTERM","attrs":{"action":"graceful-shutdown"}}
        {"t":95707393351,"ev":"service.shutdown","scene":"worker","reason":"SIGTERM"}
        {"t":102219270386,"ev":"service.stopped","scene":"worker","attrs":{"ran_ns":102202212903}}
        {"t":102219390802,"ev":"service.shutdown","scene":"http","reason":"SIGTERM"}
        {"t":102312080572,"ev":"service.stopped","scene":"http","attrs":{"ran_ns":102295787001}}
        {"t":102400000000,"ev":"process.exit","reason":"exit"}

        """

    /// What each service's lane must hold, read off the trace above: its events, in order; and on its state lane,
    /// its states.
    static let expectedLanes: [String: [String]] = [
        "service http": ["service.start", "service.ready", "service.shutdown", "service.stopped"],
        "service worker": [
            "service.start", "service.ready", "custom.job", "custom.job", "service.shutdown", "service.stopped",
        ],
        "service http state": ["starting", "running", "stopping"],
        "service worker state": ["starting", "running", "stopping"],
    ]

    /// A process its supervisor kills while `http` drains and `worker` has not yet said it is ready, written by hand.
    static let killedTrace = """
        {"lifetrace":1,"clock":"continuous","app":"example-service","lifecycle":"service"}
        {"t":0,"ev":"process.launch","reason":"unknown","pid":8927}
        {"t":1000000,"ev":"service.start","scene":"http"}
        {"t":3000000,"ev":"service.ready","scene":"http"}
        {"t":5000000,"ev":"service.start","scene":"worker"}
        {"t":40000000,"ev":"service.signal","reason":"SIGTERM","attrs":{"action":"graceful-shutdown"}}
        {"t":41000000,"ev":"service.shutdown","scene":"http","reason":"SIGTERM"}
        {"t":70000000,"ev":"process.exit","reason":"SIGKILL"}

        """

    /// A state slice: its name, start and end (ns).
    struct StateSlice: Equatable, CustomStringConvertible {
        var name: String
        var start: Int64
        var end: Int64
        var description: String { "\(name) \(start)..<\(end)" }
    }

    /// What each service's state lane must hold for ``serviceTrace``, read off its timestamps: `starting` from
    /// `service.start` to `service.ready`, `running` from there to `service.shutdown`, `stopping` from there to
    /// `service.stopped`. The worker's `custom.job` marks change nothing.
    static let expectedStates: [String: [StateSlice]] = [
        "service http state": [
            StateSlice(name: "starting", start: 16_293_571, end: 28_422_751),
            StateSlice(name: "running", start: 28_422_751, end: 102_219_390_802),
            StateSlice(name: "stopping", start: 102_219_390_802, end: 102_312_080_572),
        ],
        "service worker state": [
            StateSlice(name: "starting", start: 17_057_483, end: 693_560_146),
            StateSlice(name: "running", start: 693_560_146, end: 95_707_393_351),
            StateSlice(name: "stopping", start: 95_707_393_351, end: 102_219_270_386),
        ],
    ]

    /// What each service's state lane must hold for ``killedTrace``: the states still open when the process was
    /// killed end at its `process.exit`.
    static let expectedKilledStates: [String: [StateSlice]] = [
        "service http state": [
            StateSlice(name: "starting", start: 1_000_000, end: 3_000_000),
            StateSlice(name: "running", start: 3_000_000, end: 41_000_000),
            StateSlice(name: "stopping", start: 41_000_000, end: 70_000_000),
        ],
        "service worker state": [
            StateSlice(name: "starting", start: 5_000_000, end: 70_000_000)
        ],
    ]

    func export(_ format: TraceExport.Format, _ trace: String = serviceTrace) throws -> [UInt8] {
        let path = directory.write("service.jsonl", text: trace)
        let sink = CollectingSink()
        let (summary, _) = try TraceExport.export(try TraceReader(path: path), file: path, format: format, to: sink)
        #expect(summary.events == trace.split(separator: "\n").count - 1)
        #expect(summary.processes == 1)
        return sink.bytes
    }

    /// The events of a Chrome export of `trace` (metadata left out), each with the name of its track.
    func chromeEvents(_ trace: String) throws -> [(track: String, event: [String: Any])] {
        let bytes = try export(.chrome, trace)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        var trackNames: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            let args = try #require(event["args"] as? [String: Any])
            let tid = try #require(event["tid"] as? Int)
            trackNames[tid] = args["name"] as? String
        }
        var placed: [(track: String, event: [String: Any])] = []
        for event in events where event["ph"] as? String != "M" {
            let tid = try #require(event["tid"] as? Int)
            placed.append((try #require(trackNames[tid]), event))
        }
        return placed
    }

    /// The track events of a Perfetto export of `trace`, in order: each one's time, track name, type and name
    /// (`nil` for a slice's end).
    func perfettoEvents(_ trace: String) throws -> [(
        t: Int64, track: String, type: PerfettoTrackEvent.TypeEnum, name: String?
    )] {
        var trackNames: [UInt64: String] = [:]
        var eventNames: [UInt64: String] = [:]
        var placed: [(t: Int64, track: String, type: PerfettoTrackEvent.TypeEnum, name: String?)] = []
        let file = try export(.perfetto, trace)
        for bytes in try PerfettoWireTests.packets(of: file) {
            let packet = try PerfettoTracePacket(decoding: bytes)
            for name in packet.internedData.eventNames { eventNames[name.iid] = name.name }
            switch packet.data {
            case let .trackDescriptor(descriptor)?:
                trackNames[descriptor.uuid] = descriptor.name
            case let .trackEvent(event)?:
                let track = try #require(trackNames[event.trackUuid])
                let name: String? =
                    switch event.nameField {
                    case let .nameIid(iid)?: eventNames[iid]
                    case let .name(name)?: name
                    case nil: nil
                    }
                if event.type != .sliceEnd { try #require(name != nil) }
                placed.append((Int64(packet.timestamp), track, event.type, name))
            default:
                continue
            }
        }
        return placed
    }

    /// The state slices (category `state`) on each service's state lane of a Chrome export, in the order written.
    func chromeStates(_ trace: String) throws -> [String: [StateSlice]] {
        var states: [String: [StateSlice]] = [:]
        for (track, event) in try chromeEvents(trace)
        where event["cat"] as? String == "state" && track.hasPrefix("service ") {
            #expect(event["ph"] as? String == "X")
            // Microseconds with three digits of fraction: exact nanoseconds once scaled and rounded.
            let ts = try #require(event["ts"] as? Double)
            let dur = try #require(event["dur"] as? Double)
            let name = try #require(event["name"] as? String)
            let start = Int64((ts * 1000).rounded())
            states[track, default: []].append(
                StateSlice(name: name, start: start, end: start + Int64((dur * 1000).rounded())))
        }
        return states
    }

    /// The state slices on each service's state lane of a Perfetto export: each begin paired with its track's end.
    func perfettoStates(_ trace: String) throws -> [String: [StateSlice]] {
        var open: [String: [StateSlice]] = [:]
        var states: [String: [StateSlice]] = [:]
        for (t, track, type, name) in try perfettoEvents(trace)
        where track.hasPrefix("service ") && track.hasSuffix(" state") {
            switch type {
            case .sliceBegin:
                open[track, default: []].append(StateSlice(name: name ?? "", start: t, end: t))
            case .sliceEnd:
                let begun = open[track]?.popLast()
                var slice = try #require(begun)
                slice.end = t
                states[track, default: []].append(slice)
            default:
                Issue.record("a \(type) on the state lane \(track)")
            }
        }
        #expect(open.values.allSatisfy { $0.isEmpty })
        return states
    }

    @Test func eachServiceStateIsASliceOnItsStateLaneInTheChromeExport() throws {
        let states = try chromeStates(Self.serviceTrace)
        #expect(states == Self.expectedStates)
    }

    @Test func eachServiceStateIsASliceOnItsStateLaneInThePerfettoExport() throws {
        let states = try perfettoStates(Self.serviceTrace)
        #expect(states == Self.expectedStates)
    }

    @Test func serviceStatesStillOpenEndWhereTheirProcessEndedInBothFormats() throws {
        let chrome = try chromeStates(Self.killedTrace)
        #expect(chrome == Self.expectedKilledStates)
        let perfetto = try perfettoStates(Self.killedTrace)
        #expect(perfetto == Self.expectedKilledStates)
    }

    /// The names of what is drawn on each service's lane (instants, and slices by their beginnings).
    static func serviceLanes(_ lanes: [String: [String]]) -> [String: [String]] {
        lanes.filter { $0.key.hasPrefix("service ") }
    }

    @Test func eachServiceHasItsOwnLaneInTheChromeExport() throws {
        var lanes: [String: [String]] = [:]
        for (track, event) in try chromeEvents(Self.serviceTrace)
        where ["i", "X", "B"].contains(event["ph"] as? String) {
            lanes[track, default: []].append(try #require(event["name"] as? String))
        }
        #expect(Self.serviceLanes(lanes) == Self.expectedLanes)
        #expect(lanes["events"]?.contains("service.signal") == true)
    }

    @Test func eachServiceHasItsOwnLaneInThePerfettoExport() throws {
        var lanes: [String: [String]] = [:]
        for (_, track, type, name) in try perfettoEvents(Self.serviceTrace) where type != .sliceEnd {
            lanes[track, default: []].append(name ?? "")
        }
        #expect(Self.serviceLanes(lanes) == Self.expectedLanes)
        #expect(lanes["events"]?.contains("service.signal") == true)
    }

    @Test(arguments: [serviceTrace, killedTrace])
    func theExportsAndTheHTMLReportDrawTheSameServiceStates(trace: String) throws {
        let path = directory.write("timeline.jsonl", text: trace)
        let timeline = try ReportedTrace.analyze(path: path).timeline
        var drawn: [String: [StateSlice]] = [:]
        for lane in timeline.lanes where lane.isService {
            drawn[lane.name + " state"] = lane.segments.map { StateSlice(name: $0.state, start: $0.start, end: $0.end) }
        }
        #expect(drawn.count == 2)
        let chrome = try chromeStates(trace)
        #expect(chrome == drawn)
        let perfetto = try perfettoStates(trace)
        #expect(perfetto == drawn)
    }
}
