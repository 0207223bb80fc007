import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Summary rows read back as `compare` reads them: what a writer wrote comes back equal, rows another tool wrote
/// with fewer or more columns are taken, and anything else is refused with one line naming the file, the line
/// and the column.
@Suite struct SummaryRowReadingTests {
    let directory = TemporaryDirectory()

    static func read(_ text: String, file: String = "s.jsonl", number: Int = 1) throws(TraceError) -> SummaryRow? {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (line) throws(TraceError) in
            try SummaryRow(line: line, number: number, file: file)
        }
    }

    @Test func everyRowWrittenReadsBackEqual() throws {
        var summarizer = TraceSummarizer(codec: .zstd)
        var rows: [SummaryRow] = []
        for path in PackagePaths.sampleTraces(extension: "lifetrace") {
            summarizer.summarize(path: path) { rows.append($0) }
        }
        #expect(rows.count > 100)
        for row in rows {
            var bytes: [UInt8] = []
            row.appendLine(to: &bytes)
            let line = String(decoding: bytes.dropLast(), as: UTF8.self)
            #expect(try Self.read(line) == row, "\(line)")
            // Foundation's coders take the same type: the row is Codable, not only this package's JSON.
            let viaFoundation = try JSONDecoder().decode(SummaryRow.self, from: JSONEncoder().encode(row))
            #expect(viaFoundation == row)
        }
    }

    /// The leaked-task sample's task row, column by column: what the trace's lines say (task 1 begun at
    /// 24.341495543 s, never ended, expired).
    @Test func aTaskRowReadsAsTypedColumns() throws {
        let text =
            #"{"summary_version":1,"row":"task","trace":"t","app":"a","app_version":null,"build":"417","os_version":null,"device":null,"test_name":null,"source":null,"task_kind":"background-task","task_id":1,"task_name":null,"begin_t_ns":24341495543,"end_t_ns":null,"duration_ns":null,"expired":true,"ended":false}"#
        let row = try #require(try Self.read(text))
        #expect(row.trace == "t" && row.run.app == "a" && row.run.build == "417" && row.run.osVersion == nil)
        guard case let .task(task) = row.columns else {
            Issue.record("\(row.columns)")
            return
        }
        #expect(task.kind == "background-task" && task.id == 1 && task.begin == 24_341_495_543)
        #expect(task.end == nil && task.duration == nil && task.expired == true && task.ended == false)
    }

    /// A row with only some columns (a hand-made file, an older writer) and one with columns or a kind this
    /// version does not know (a newer writer: new columns do not change the version) are both taken.
    @Test func fewerOrUnknownColumnsAndUnknownKindsAreTaken() throws {
        let partial = try #require(try Self.read(#"{"summary_version":1,"row":"trace","trace":"b","active_ns":1}"#))
        #expect(
            partial.columns
                == .trace(
                    {
                        var c = TraceColumns()
                        c.times.active = 1
                        return c
                    }()))
        let extra = try #require(
            try Self.read(#"{"summary_version":1,"row":"handler","trace":"b","handler":"x","mean_ns":5,"p95_ns":9}"#))
        guard case let .handler(handler) = extra.columns else {
            Issue.record("\(extra.columns)")
            return
        }
        #expect(handler.handler == "x" && handler.mean == 5 && handler.count == nil)
        let other = try #require(try Self.read(#"{"summary_version":1,"row":"span","trace":"b","name":"upload"}"#))
        #expect(other.columns == .other(kind: "span") && other.kind == "span")
        #expect(try Self.read("") == nil, "an empty line is skipped")
    }

    @Test(arguments: [
        (
            #"{"summary_version":1,"row":"trace","trace":"t","events":"12"}"#,
            "s.jsonl:3: not a summary row: events is a string, not an integer"
        ),
        (
            #"{"summary_version":1,"row":"service","trace":"t","stopped":1}"#,
            "s.jsonl:3: not a summary row: stopped is a number, not a boolean"
        ),
        (
            #"{"summary_version":1,"row":"process","trace":"t","launch_ns":1.5}"#,
            "s.jsonl:3: not a summary row: launch_ns is a number, not an integer"
        ),
        (
            #"{"summary_version":1,"row":"trace","trace":"t","app":7}"#,
            "s.jsonl:3: not a summary row: app is a number, not a string"
        ),
        (
            #"{"summary_version":2,"row":"trace","trace":"t"}"#,
            "s.jsonl:3: summary_version 2 is not 1, the version this lifetrace reads"
        ),
        (#"{"row":"trace","trace":"t"}"#, "s.jsonl:3: not a summary row: no summary_version"),
        (#"{"summary_version":1,"trace":"t"}"#, #"s.jsonl:3: not a summary row: no "row" string"#),
        (#"{"summary_version":1,"row":"trace","trace":3}"#, #"s.jsonl:3: not a summary row: no "trace" string"#),
        ("[1]", "s.jsonl:3: not a summary row: an array, not an object"),
    ])
    func aLineThatIsNotASummaryRowIsAnErrorNamingItsLine(text: String, message: String) {
        #expect(throws: TraceError.self) { try Self.read(text, number: 3) }
        do {
            _ = try Self.read(text, number: 3)
        } catch {
            #expect(error.description == message)
        }
    }

    /// `compare` tells a summary file from a trace by its first line alone, whatever the order of its members; a
    /// byte-order mark still counts (reading it then refuses it, naming line 1).
    @Test func aSummaryFileIsToldByItsFirstLine() throws {
        let row = #"{"summary_version":1,"row":"trace","trace":"t","active_ns":4}"#
        let summary = directory.write("a.sum.jsonl", text: row + "\n")
        let marked = directory.write("bom.sum.jsonl", [0xEF, 0xBB, 0xBF] + Array((row + "\n").utf8))
        let reordered = directory.write(
            "duckdb.sum.jsonl", text: #"{"row":"trace","trace":"t","summary_version":1,"active_ns":4}"# + "\n")
        let trace = directory.write("t.jsonl", text: #"{"lifetrace":1}"# + "\n")
        let headless = directory.write("events.jsonl", text: #"{"t":0,"ev":"heartbeat"}"# + "\n")
        let neither = directory.write("empty-object.jsonl", text: "{}\n" + row + "\n")
        #expect([summary, marked, reordered].allSatisfy { SummaryFile.content(of: $0) == .summary })
        #expect(![trace, directory.file("missing"), neither].contains { SummaryFile.content(of: $0) == .summary })
        #expect(SummaryFile.content(of: neither) == .neither)
        #expect(
            [summary, trace, headless, directory.file("missing")].map(SummaryFile.content(of:)) == [
                .summary, .trace, .trace, .trace,
            ])
        var observations = SummaryObservations()
        try SummaryFile.read(summary, into: &observations)
        observations.finish()
        #expect(observations.traces == 1 && observations.values.values.first == [4])
        #expect(throws: TraceError.self) { try SummaryFile.read(marked, into: &observations) }
    }
}
