import Foundation
import LifetraceCore
import LifetraceTestSupport
import Testing

/// Every attribute key lifetrace writes or reads is documented in the JSON Schema, with its type.
@Suite struct AttributeKeyTests {
    @Test func everyKeyIsInTheSchema() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("Schemas/trace-event.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let event = try #require(defs["event"] as? [String: Any])
        let attrs = try #require((event["properties"] as? [String: Any])?["attrs"] as? [String: Any])
        let properties = try #require(attrs["properties"] as? [String: Any])
        for key in Attribute.Key.all {
            let property = try #require(properties[key] as? [String: Any], "\(key) is not in the schema")
            #expect(property["description"] is String, "\(key) has no description")
            #expect(property["type"] is String, "\(key) has no type")
        }
        #expect(Set(properties.keys) == Set(Attribute.Key.all), "the schema documents a key the code does not know")
    }
}
