import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Every malformed JSON Lines input is an error naming the line (and column), never a silent loss.
@Suite struct JSONLinesErrorTests {
    let files = ScratchTraces()

    static let cases: [(String, String)] = [
        ("{\"t\":1,\"ev\":\"scene.didBecomeActive\"}", "2: scene.didBecomeActive needs \"scene\""),
        ("{\"t\":1,\"ev\":\"nope\"}", "2: unknown event \"nope\" (column 13)"),
        ("{\"t\":1}", "2: missing \"ev\""),
        ("{\"ev\":\"heartbeat\"}", "2: missing \"t\""),
        ("{\"t\":-1,\"ev\":\"heartbeat\"}", "2: \"t\" must not be negative (column 6)"),
        ("{\"t\":1.5,\"ev\":\"heartbeat\"}", "2: \"t\" must be an integer in the 64-bit range (column 6)"),
        (
            "{\"t\":99999999999999999999,\"ev\":\"heartbeat\"}",
            "2: integer out of the signed 64-bit range (write 1.8e19 for a number) (column 6)"
        ),
        ("{\"t\":1,\"ev\":\"heartbeat\",\"extra\":1}", "2: unknown field \"extra\" (column 25)"),
        (
            "{\"summary_version\":1,\"row\":\"trace\"}",
            "2: a summary row (summarize's output), not a trace's event (column 2)"
        ),
        (
            "{\"row\":\"trace\",\"summary_version\":1}",
            "2: a summary row (summarize's output), not a trace's event (column 2)"
        ),
        ("{\"t\":1,\"ev\":\"heartbeat\",}", "2: expected a key (column 25)"),
        ("{\"t\":1,\"ev\":\"heartbeat\"} x", "2: unexpected characters after the JSON value (column 26)"),
        ("[1,2]", "2: expected '{'"),
        ("not json", "2: expected '{'"),
        (
            "{\"t\":1,\"ev\":\"swiftui.scenePhase\",\"phase\":\"asleep\"}",
            "2: \"phase\" must be active, inactive or background (column 42)"
        ),
        (
            "{\"t\":1,\"ev\":\"heartbeat\",\"attrs\":{\"a\":[1]}}",
            "2: attribute \"a\" must be a string, number or bool (column 38)"
        ),
        ("{\"t\":1,\"ev\":\"heartbeat\",\"dur\":5,\"dur\":6}", "2: duplicate key \"dur\" (column 33)"),
        ("{\"t\":1,\"ev\":\"custom.\"}", "2: a custom event needs a name after \"custom.\" (column 13)"),
        (
            "{\"t\":9223372036854775000,\"ev\":\"app.willTerminate\",\"dur\":1000}",
            "2: t + dur (the handler's end) exceeds the signed 64-bit range"
        ),
        ("{\"t\":1,\"ev\":\"heartbeat\",\"scene\":\"\\ud800\"}", "2: unpaired surrogate (column 34)"),
    ]

    @Test(arguments: cases)
    func malformedLinesAreErrorsNamingTheLine(line: String, message: String) throws {
        let path = files.directory.write("bad.jsonl", text: "{\"t\":0,\"ev\":\"heartbeat\"}\n" + line + "\n")
        let error = try #require(files.readError(path))
        #expect(error.description == "\(path):\(message)")
        #expect(error.kind == .malformed)
    }

    @Test func decreasingTimeIsAnError() throws {
        let path = files.directory.write(
            "back.jsonl", text: "{\"t\":5,\"ev\":\"heartbeat\"}\n{\"t\":4,\"ev\":\"heartbeat\"}\n")
        #expect(files.readError(path)?.description == "\(path):2: t=4 is before the previous event's t=5")
    }

    @Test func aNewerMajorVersionHeaderIsRejected() throws {
        let path = files.directory.write("v2.jsonl", text: "{\"lifetrace\":2}\n")
        #expect(
            files.readError(path)?.description
                == "\(path):1: written in format version 2; this lifetrace reads version 1: upgrade lifetrace")
    }

    @Test func aHeaderWithAWrongTypeNamesTheMember() throws {
        let path = files.directory.write("h.jsonl", text: "{\"lifetrace\":1,\"scene_manifest\":\"yes\"}\n")
        #expect(files.readError(path)?.description == "\(path):1: header: \"scene_manifest\" must be true or false")
    }

    /// A header line that is no JSON is an error saying what is wrong with it, where: not that an event has no
    /// member `lifetrace`.
    @Test(arguments: [
        (#"{"lifetrace":1,"app":"a","app":"b"}"#, #"1: header: duplicate key "app" (column 32)"#),
        (#"{"lifetrace":1,"app":"a",}"#, "1: header: expected a key (column 26)"),
        (
            #" { "lifetrace":99999999999999999999}"#,
            "1: header: integer out of the signed 64-bit range (write 1.8e19 for a number) (column 16)"
        ),
    ])
    func aHeaderThatIsNoJSONSaysWhy(line: String, message: String) throws {
        let path = files.directory.write("h.jsonl", text: line + "\n{\"t\":0,\"ev\":\"heartbeat\"}\n")
        #expect(files.readError(path)?.description == "\(path):\(message)")
    }

    /// A file's header is its first line; a stream that `lifetrace record` reads may carry other lines first,
    /// counted as blank lines.
    @Test func aHeaderAfterBlankLinesIsOneOnlyWhereAllowed() throws {
        let header = #"{"lifetrace":1,"app":"com.example.app"}"#
        var file = JSONLinesLineDecoder(file: "f.jsonl")
        #expect(try file.decode("").isBlank)
        #expect(throws: TraceError.self) { try file.decode(header) }
        var stream = JSONLinesLineDecoder(file: "-")
        stream.headerMayFollowBlankLines = true
        #expect(try stream.decode("").isBlank)
        #expect(try stream.decode(header).header?.app == "com.example.app")
        var late = JSONLinesLineDecoder(file: "-")
        late.headerMayFollowBlankLines = true
        _ = try late.decode(#"{"t":0,"ev":"heartbeat"}"#)
        #expect(throws: TraceError.self) { try late.decode(header) }
    }

    @Test func blankLinesAndCRLFAreAccepted() throws {
        let path = files.directory.write(
            "crlf.jsonl", text: "{\"t\":0,\"ev\":\"heartbeat\"}\r\n\r\n{\"t\":1,\"ev\":\"heartbeat\"}")
        #expect(try files.readAll(path).events.map(\.t) == [0, 1])
    }

    @Test func escapesDecodeToTheCharactersTheyName() throws {
        let path = files.directory.write(
            "esc.jsonl", text: #"{"t":0,"ev":"heartbeat","scene":"a\"b\\c\/d\n\u00e9\ud83e\udded"}"#)
        #expect(try files.readAll(path).events.first?.scene == "a\"b\\c/d\né🧭")
    }

    /// Keys and event names are matched as bytes where they have no escape: written with escapes, they are the
    /// same members and kinds; a key of another spelling or invalid UTF-8 is still an error naming it.
    @Test func escapedKeysAndNamesAreTheMembersAndKindsTheySpell() throws {
        let path = files.directory.write(
            "keys.jsonl", text: #"{"\u0074":5,"e\u0076":"scene.didBecome\u0041ctive","sc\u0065ne":"S1","dur":2}"#)
        let event = try #require(try files.readAll(path).events.first)
        #expect(event.t == 5 && event.kind == .sceneDidBecomeActive && event.scene == "S1" && event.dur == 2)
        let other = files.directory.write("other.jsonl", text: #"{"t":1,"ev":"heartbeat","T":1}"#)
        #expect(files.readError(other)?.description == "\(other):1: unknown field \"T\" (column 25)")
        var bytes = Array(#"{"t":1,"ev":"heartbeat",""#.utf8)
        bytes += [0xC3, 0x28] + Array(#"":1}"#.utf8)
        let invalid = files.directory.write("invalid.jsonl", bytes)
        #expect(files.readError(invalid)?.description == "\(invalid):1: string is not valid UTF-8 (column 26)")
    }

    @Test func anOverlongLineIsRefused() throws {
        let long = "{\"t\":0,\"ev\":\"heartbeat\",\"scene\":\"" + String(repeating: "x", count: 1 << 20) + "\"}\n"
        let path = files.directory.write("long.jsonl", text: long)
        #expect(files.readError(path)?.description == "\(path):1: line longer than 1048576 bytes")
    }
}

extension JSONLinesLineDecoder.Line {
    var isBlank: Bool {
        if case .blank = self { return true }
        return false
    }

    var header: TraceHeader? {
        if case let .header(header) = self { return header }
        return nil
    }
}
