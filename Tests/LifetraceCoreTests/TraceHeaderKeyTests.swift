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
        for key in TraceHeader.Key.allCases {
            let property = try #require(properties[key.rawValue] as? [String: Any], "\(key) is not in the schema")
            #expect(property["description"] is String, "\(key) has no description")
        }
        let capture = try #require(properties[TraceHeader.Key.capture.rawValue] as? [String: Any])
        #expect(capture["enum"] as? [String] == TraceHeader.CaptureMethod.allCases.map(\.rawValue))
    }

    @Test func typedAccessorsReadAndWriteTheirMembers() {
        var header = TraceHeader()
        header.heartbeatNanoseconds = 1_000_000_000
        header.captureMethod = .notifications
        header.isDerived = true
        #expect(header[.heartbeat] == .int(1_000_000_000))
        #expect(header[.capture] == .string("notifications"))
        #expect(header[.derived] == .bool(true))
        header[.heartbeat] = .int(0)
        #expect(header.heartbeatNanoseconds == nil)  // not positive: no heartbeats
        header.isDerived = false
        #expect(header[.derived] == nil)
    }
}
