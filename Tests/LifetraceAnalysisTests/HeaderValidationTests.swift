import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Every header member `Schemas/trace-event.schema.json` types is checked by every reader, the same way: the
/// cases are generated from the schema (a value of each type it gives, values of other types, an enum's other
/// strings, a number under a minimum), so a member added to the schema is checked here without a line of this
/// file changing — and fails until the readers check it. A wrong value is refused as `"clock": "sundial"` always
/// was: `check` exits 2 with one line naming the member; the Swift readers (JSON Lines and binary) throw it;
/// the specification's Python reader exits 2 with it too.
@Suite struct HeaderValidationTests {
    /// One member of the schema's header, with values it must accept and values it must refuse.
    struct Member: Sendable, CustomTestStringConvertible {
        var key: String
        var valid: [JSONValue]
        var invalid: [JSONValue]
        var testDescription: String { key }
    }

    /// The schema's `header.properties`, in the schema's order, as the JSON the schema holds.
    static let properties: [(key: String, property: JSONValue)] = {
        let text = try! String(contentsOfFile: PackagePaths.path("Schemas/trace-event.schema.json"), encoding: .utf8)
        let schema = try! JSONValue(parsing: text, file: "trace-event.schema.json")
        guard case let .object(members)? = schema["$defs"]?["header"]?["properties"] else { return [] }
        return members.map { ($0.key, $0.value) }
    }()

    /// The cases each member's schema calls for; `nil` for a type this test does not know (which fails).
    static func member(_ key: String, _ property: JSONValue) -> Member? {
        if case let .array(names)? = property["enum"] {
            let strings = names.compactMap(\.stringValue)
            return Member(
                key: key, valid: strings.map(JSONValue.string),
                invalid: [.string("not-" + strings.joined()), .int(7), .null, .array(strings.map(JSONValue.string))])
        }
        switch property["type"]?.stringValue {
        case "string":
            return Member(
                key: key, valid: [.string("x"), .string("")],
                invalid: [.int(7), .bool(true), .null, .array([.string("x")])])
        case "boolean":
            return Member(key: key, valid: [.bool(true), .bool(false)], invalid: [.string("true"), .int(1), .null])
        case "integer":
            let minimum = property["minimum"]?.intValue
            var invalid: [JSONValue] = [.string("1s"), .double(1.5), .bool(true), .null]
            if let minimum { invalid.append(.int(minimum - 1)) }
            return Member(
                key: key, valid: [.int(max(minimum ?? 1, 1))] + (minimum.map { [.int($0)] } ?? [.int(-1), .int(0)]),
                invalid: invalid)
        case "array" where property["items"]?["type"]?.stringValue == "string":
            return Member(
                key: key, valid: [.array([.string("a"), .string("b")]), .array([])],
                invalid: [.string("a"), .array([.int(7)]), .null])
        default:
            return nil
        }
    }

    static let members: [Member] = properties.compactMap { member($0.key, $0.property) }

    let directory = TemporaryDirectory()

    /// A JSON Lines trace whose header is `{"lifetrace":1,KEY:VALUE}` (for `lifetrace` itself, its value alone).
    func jsonLines(_ key: String, _ value: JSONValue) -> String {
        let header =
            key == "lifetrace" ? "{\"lifetrace\":\(value.jsonText)}" : "{\"lifetrace\":1,\"\(key)\":\(value.jsonText)}"
        return directory.write(
            "\(UUID().uuidString).jsonl", text: header + "\n{\"t\":0,\"ev\":\"process.launch\",\"reason\":\"user\"}\n")
    }

    /// The same as a binary trace (not for `lifetrace`, which the header frame carries in its own bytes).
    func binary(_ key: String, _ value: JSONValue) throws -> String {
        let path = directory.path + "/\(UUID().uuidString).lifetrace"
        let writer = try makeEventWriter(path: path, header: TraceHeader(extra: [(key, value)]))
        try writer.append(LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"))
        try writer.close()
        return path
    }

    /// The built `lifetrace`, beside the test bundle in the build directory.
    static let commandLine: String? = {
        if let explicit = ProcessInfo.processInfo.environment["LIFETRACE_BIN"] { return explicit }
        var candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        ]
        candidates += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        return candidates.map { $0.appendingPathComponent("lifetrace").path }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Every member the schema types is one this test knows how to generate, and one the readers check with
    /// the type the schema gives it.
    @Test func theReadersCheckEveryMemberTheSchemaTypes() {
        #expect(!Self.properties.isEmpty)
        for (key, property) in Self.properties {
            #expect(
                Self.member(key, property) != nil,
                "the schema types \"\(key)\" in a way this test cannot generate values for")
            let type = TraceHeader.memberTypes[key]
            #expect(
                type != nil, "the schema types \"\(key)\", which TraceHeader.memberTypes (what the readers check) lacks"
            )
            switch type {
            case let .oneOf(names)?:
                #expect(property["enum"] == .array(names.map(JSONValue.string)), "\(key)")
            case let .integer(minimum)?:
                #expect(property["type"] == .string("integer") && property["minimum"]?.intValue == minimum, "\(key)")
            case .string?: #expect(property["type"] == .string("string"), "\(key)")
            case .boolean?: #expect(property["type"] == .string("boolean"), "\(key)")
            case .strings?: #expect(property["type"] == .string("array"), "\(key)")
            case nil: break
            }
        }
    }

    @Test(arguments: members)
    func aValueOfTheSchemasTypeIsRead(member: Member) throws {
        for value in member.valid where member.key != "lifetrace" || value == .int(1) {
            let text = try TraceAnalyzer.analyze(path: jsonLines(member.key, value))
            #expect(text.header?.jsonValue[member.key] == value, "\(member.key): \(value.jsonText)")
            guard member.key != "lifetrace" else { continue }
            let binary = try TraceAnalyzer.analyze(path: try binary(member.key, value))
            #expect(binary.header?.jsonValue[member.key] == value, "\(member.key): \(value.jsonText)")
        }
    }

    /// Each reader refuses a value outside the schema's type, in one line naming the member.
    @Test(arguments: members)
    func aValueOutsideTheSchemasTypeIsRefusedNamingTheMember(member: Member) throws {
        let named = "\"\(member.key)\""
        for value in member.invalid {
            var paths = [jsonLines(member.key, value)]
            if member.key != "lifetrace" { paths.append(try binary(member.key, value)) }
            for path in paths {
                let error = #expect(throws: TraceError.self) { try TraceAnalyzer.analyze(path: path) }
                let line = error.map { "\($0)" } ?? ""
                #expect(line.contains(named) && !line.contains("\n"), "\(member.key) \(value.jsonText): \(line)")
            }
        }
    }

    /// `lifetrace check` exits 2 with one line naming the member, whatever the format.
    @Test(arguments: members)
    func checkExitsTwoNamingTheMember(member: Member) throws {
        let tool = try #require(Self.commandLine, "the lifetrace executable is built beside the tests")
        let value = member.invalid[0]
        var paths = [jsonLines(member.key, value)]
        if member.key != "lifetrace" { paths.append(try binary(member.key, value)) }
        for path in paths {
            let result = try run(tool, ["check", path])
            #expect(result.status == 2, "\(member.key) \(value.jsonText): \(result.stderr)")
            #expect(
                result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("\"\(member.key)\""),
                "\(result.stderr)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
    }

    /// The specification's reader (`scripts/lifetrace_read.py`, binary traces) accepts and refuses the same.
    @Test(.integration, arguments: members.filter { $0.key != "lifetrace" })
    func theSpecificationsReaderAgrees(member: Member) throws {
        let python = try #require(which("python3"), "python3 is needed (scripts/test installs it)")
        let script = PackagePaths.path("scripts/lifetrace_read.py")
        let accepted = try run(python, [script, try binary(member.key, member.valid[0])])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let refused = try run(python, [script, try binary(member.key, member.invalid[0])])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("\"\(member.key)\""),
            "\(refused.stderr)")
    }

    /// The issue's three headers, and the clock that was always refused.
    @Test(arguments: [
        ("{\"lifetrace\":1,\"capture\":\"swizzling\"}", "\"capture\" must be callbacks or notifications"),
        ("{\"lifetrace\":1,\"capture\":7}", "\"capture\" must be callbacks or notifications"),
        ("{\"lifetrace\":1,\"heartbeat_ns\":\"1s\"}", "\"heartbeat_ns\" must be an integer"),
        ("{\"lifetrace\":1,\"clock\":\"sundial\"}", "\"clock\" must be continuous, monotonic or wall"),
    ])
    func theIssuesHeadersAreRefused(header: String, message: String) throws {
        let path = directory.write(
            "h.jsonl", text: header + "\n{\"t\":0,\"ev\":\"process.launch\",\"reason\":\"user\"}\n")
        let error = #expect(throws: TraceError.self) { try TraceAnalyzer.analyze(path: path) }
        #expect(error.map { "\($0)" } == "\(path):1: header: \(message)")
    }
}
