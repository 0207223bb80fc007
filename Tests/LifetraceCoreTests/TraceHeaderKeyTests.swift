import Foundation
import LifetraceCore
import LifetraceTestSupport
import Testing

/// Every header member lifetrace writes or reads is documented in the JSON Schema, with its type.
@Suite struct TraceHeaderKeyTests {
    @Test func everyKeyIsInTheSchema() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("Schemas/trace-event.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let header = try #require(defs["header"] as? [String: Any])
        let properties = try #require(header["properties"] as? [String: Any])
        for key in TraceHeader.Key.all {
            let property = try #require(properties[key] as? [String: Any], "\(key) is not in the schema")
            #expect(property["description"] is String, "\(key) has no description")
        }
        let capture = try #require(properties[TraceHeader.Key.capture] as? [String: Any])
        #expect(capture["enum"] as? [String] == TraceHeader.CaptureMethod.allCases.map(\.rawValue))
    }

    @Test func typedAccessorsReadAndWriteTheirMembers() {
        var header = TraceHeader()
        header.heartbeatNanoseconds = 1_000_000_000
        header.captureMethod = .notifications
        header.isDerived = true
        #expect(header[extra: "heartbeat_ns"] == .int(1_000_000_000))
        #expect(header[extra: "capture"] == .string("notifications"))
        #expect(header[extra: "derived"] == .bool(true))
        header[extra: "heartbeat_ns"] = .int(0)
        #expect(header.heartbeatNanoseconds == nil)  // not positive: no heartbeats
        header.isDerived = false
        #expect(header[extra: "derived"] == nil)
    }
}
