import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The row type against `Schemas/summary.schema.json`, the contract warehouses load: every row written validates
/// against the schema, every column the schema names is a ``SummaryRow/CodingKeys`` case and the other way round,
/// and each kind's columns come in the schema's order.
@Suite struct SummaryRowSchemaTests {
    let directory = TemporaryDirectory()

    /// The schema, parsed by Foundation (not by the code under test).
    static var definitions: [String: [String: Any]] {
        let data = try! Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("Schemas/summary.schema.json")))
        let schema = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return schema["$defs"] as! [String: [String: Any]]
    }

    /// Rows of every kind: the sample traces (traces, processes, handlers, tasks, findings), a simulated service
    /// process (services) and a file that is not a trace (an error row).
    func writtenRows() throws -> [SummaryRow] {
        let service = directory.file("service.lifetrace")
        let simulator = ServiceSimulator(configuration: .init(scenario: .rollingDeploy, seed: 3))
        let writer = try makeEventWriter(path: service, header: simulator.header)
        try simulator.run { try writer.append($0) }
        try writer.close()
        let garbage = directory.write("garbage.lifetrace", text: "not a trace")
        var summarizer = TraceSummarizer(codec: .zstd)
        var rows: [SummaryRow] = []
        for path in PackagePaths.sampleTraces(extension: "lifetrace") + [service, garbage] {
            summarizer.summarize(path: path) { rows.append($0) }
        }
        return rows
    }

    /// Checks `value` against the schema's `property` (type, const, enum); `nil` when it fits.
    static func mismatch(_ value: JSONValue, _ property: [String: Any]) -> String? {
        if let constant = property["const"] {
            return "\(constant)" == (value.stringValue ?? value.jsonText)
                ? nil : "is \(value.jsonText), not \(constant)"
        }
        if let allowed = property["enum"] as? [String] {
            return value.stringValue.map(allowed.contains) == true ? nil : "\(value.jsonText) is not one of \(allowed)"
        }
        let types = (property["type"] as? [String]) ?? [property["type"] as! String]
        let type =
            switch value {
            case .null: "null"
            case .bool: "boolean"
            case .int: "integer"
            case .double: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        return types.contains(type) ? nil : "is \(type), not \(types)"
    }

    @Test func everyRowWrittenValidatesAgainstTheSchema() throws {
        let rows = try writtenRows()
        let kinds = Set(rows.map(\.kind))
        #expect(kinds == ["trace", "process", "handler", "task", "service", "finding", "error"])
        for row in rows {
            var bytes: [UInt8] = []
            row.appendLine(to: &bytes)
            #expect(
                bytes.last == UInt8(ascii: "\n") && bytes.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "one line"
            )
            guard case let .object(members) = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self), file: "-")
            else {
                Issue.record("\(row.kind) is not an object")
                continue
            }
            let object = Dictionary(members, uniquingKeysWith: { first, _ in first })
            #expect(object.count == members.count, "no column twice")
            let definition = try #require(Self.definitions[row.kind], "the schema defines \(row.kind) rows")
            let properties = definition["properties"] as! [String: [String: Any]]
            let required = definition["required"] as! [String]
            #expect(Set(object.keys) == Set(required), "\(row.kind): \(object.keys.sorted())")
            #expect(Set(object.keys).isSubset(of: properties.keys), "additionalProperties is false")
            for (key, value) in object {
                guard let property = properties[key] else { continue }
                #expect(
                    Self.mismatch(value, property) == nil, "\(row.kind).\(key) \(Self.mismatch(value, property) ?? "")")
            }
        }
    }

    /// The schema lists each kind's columns in the order rows give them; the common columns first.
    @Test func eachKindsColumnsComeInTheSchemasOrder() throws {
        var seen: Set<String> = []
        for row in try writtenRows() where seen.insert(row.kind).inserted {
            guard case let .object(members) = row.json else {
                Issue.record("\(row.kind) is not an object")
                continue
            }
            let required = try #require(Self.definitions[row.kind]?["required"] as? [String])
            #expect(members.map(\.key) == required, "\(row.kind)")
        }
    }

    /// ``SummaryRow/CodingKeys`` spells exactly the columns the schema names, each once.
    @Test func codingKeysAreTheSchemasColumns() throws {
        let spelled = SummaryRow.CodingKeys.allCases.map(\.stringValue)
        #expect(Set(spelled).count == spelled.count, "each column spelled once")
        var named: Set<String> = []
        for definition in Self.definitions.values {
            named.formUnion((definition["properties"] as! [String: Any]).keys)
        }
        #expect(Set(spelled) == named)
        let version = Self.definitions["trace"]?["properties"].flatMap {
            ($0 as? [String: [String: Any]])?["summary_version"]?["const"]
        }
        #expect(version as? Int == SummaryRow.schemaVersion)
    }
}
