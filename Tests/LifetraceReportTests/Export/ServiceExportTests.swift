import Foundation
import LifetraceFormat
@testable import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// A service's events (what `LifetraceServiceLifecycle` records under swift-service-lifecycle) are drawn on a lane
/// of their own per service, named after it, in both formats; the process's own events (its launch, the signal,
/// its exit) stay on its events lane.
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

    /// What each service's lane must hold, read off the trace above: its events, in order.
    static let expectedLanes: [String: [String]] = [
        "service http": ["service.start", "service.ready", "service.shutdown", "service.stopped"],
        "service worker": ["service.start", "service.ready", "custom.job", "custom.job", "service.shutdown", "service.stopped"],
    ]

    final class CollectingSink: TraceSink {
        var bytes: [UInt8] = []
        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) { self.bytes.append(contentsOf: bytes) }
        func flush() throws(TraceError) {}
    }

    func export(_ format: TraceExport.Format) throws -> [UInt8] {
        let path = directory.write("service.jsonl", text: Self.serviceTrace)
        let sink = CollectingSink()
        let (summary, _) = try TraceExport.export(try TraceReader(path: path), file: path, format: format, to: sink)
        #expect(summary.events == 13)
        #expect(summary.processes == 1)
        return sink.bytes
    }

    /// The names of what is drawn on each service's lane (instants, and slices by their beginnings).
    static func serviceLanes(_ lanes: [String: [String]]) -> [String: [String]] {
        lanes.filter { $0.key.hasPrefix("service ") }
    }

    @Test func eachServiceHasItsOwnLaneInTheChromeExport() throws {
        let bytes = try export(.chrome)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        var trackNames: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            let args = try #require(event["args"] as? [String: Any])
            let tid = try #require(event["tid"] as? Int)
            trackNames[tid] = args["name"] as? String
        }
        var lanes: [String: [String]] = [:]
        for event in events where ["i", "X", "B"].contains(event["ph"] as? String) {
            let tid = try #require(event["tid"] as? Int)
            let track = try #require(trackNames[tid])
            let name = try #require(event["name"] as? String)
            lanes[track, default: []].append(name)
        }
        #expect(Self.serviceLanes(lanes) == Self.expectedLanes)
        #expect(lanes["events"]?.contains("service.signal") == true)
    }

    @Test func eachServiceHasItsOwnLaneInThePerfettoExport() throws {
        var trackNames: [UInt64: String] = [:]
        var eventNames: [UInt64: String] = [:]
        var lanes: [String: [String]] = [:]
        let file = try export(.perfetto)
        for bytes in try PerfettoWireTests.packets(of: file) {
            let packet = try PerfettoTracePacket(decoding: bytes)
            for name in packet.internedData.eventNames { eventNames[name.iid] = name.name }
            switch packet.data {
            case let .trackDescriptor(descriptor)?:
                trackNames[descriptor.uuid] = descriptor.name
            case let .trackEvent(event)? where event.type != .sliceEnd:
                let track = try #require(trackNames[event.trackUuid])
                let name: String? = switch event.nameField {
                case let .nameIid(iid)?: eventNames[iid]
                case let .name(name)?: name
                case nil: nil
                }
                let known = try #require(name)
                lanes[track, default: []].append(known)
            default:
                continue
            }
        }
        #expect(Self.serviceLanes(lanes) == Self.expectedLanes)
        #expect(lanes["events"]?.contains("service.signal") == true)
    }
}
