import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The pipeline `summarize` and `compare` share, in process: traces read on several threads come back in the
/// order they were listed, each with the rows one summarizer gives it alone.
@Suite struct SummaryPipelineTests {
    let directory = TemporaryDirectory()

    @Test func rowsComeBackInTheOrderTheTracesWereListed() throws {
        let paths = PackagePaths.sampleTraces(extension: "lifetrace") + PackagePaths.sampleTraces(extension: "jsonl")
        let refused = TraceError(.io, file: "fifo.lifetrace", at: .file, "not a regular file")
        let entries: [SummaryPipeline.Entry] = paths.map { ($0, nil) } + [("fifo.lifetrace", refused)]
        // One summarizer, one trace after the other: what the pipeline must give.
        var expected: [UInt8] = []
        var summarizer = TraceSummarizer(codec: .zstd)
        for path in paths { summarizer.summarize(path: path, into: &expected) }
        var refusedRow = ObservedRows()
        summarizer.unreadable(path: "fifo.lifetrace", refused, into: &refusedRow)
        SummaryRow(trace: "fifo.lifetrace", run: .init(), .error(ErrorColumns(error: refused.description, kind: "io")))
            .appendLine(to: &expected)

        let output = directory.file("rows.jsonl")
        let sink = try FileSink(path: output)
        var remaining = entries[...]
        var completes: [Bool] = []
        let count = try SummaryPipeline.run(
            models: LifecycleModel.builtIn, codec: .zstd, configuration: { _ in .defaults },
            jobs: 2, next: { remaining.popFirst() }, makeRows: SpilledRows.init
        ) { rows, complete in
            completes.append(complete)
            try rows.write(to: sink)
        }
        try sink.flush()
        #expect(count == entries.count)
        #expect(completes == paths.map { _ in true } + [false])
        #expect(directory.read("rows.jsonl") == expected)
        #expect(refusedRow.observations.unreadable == 1)
    }
}
