import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `check`'s run of many traces in process: every trace analyzed once on the package's parallel runner, results in
/// the order given, a trace that cannot be read failing alone, and a baseline's findings left out.
@Suite struct TraceCheckTests {
    let directory = TemporaryDirectory()
    static let clean = PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace")
    static let faulty = PackagePaths.path("SampleTraces/fault-background-without-resign.lifetrace")
    static let other = PackagePaths.path("SampleTraces/fault-task-ended-twice.lifetrace")

    @Test(arguments: [1, 2, 5])
    func resultsComeInTheOrderOfThePathsWhateverTheWorkers(workers: Int) throws {
        let paths = PackagePaths.sampleTraces(extension: "lifetrace")
        let outcomes = TraceCheck(PreparedAnalysis(codec: .zstd)).run(paths, workers: workers)
        #expect(try outcomes.map { try $0.get().file } == paths)
        // Each is what analyzing that trace alone gives.
        for (path, outcome) in zip(paths, outcomes) {
            let alone = try TraceAnalyzer.analyze(path: path, codec: .zstd)
            #expect(try outcome.get().findings.map(\.baselineKey) == alone.findings.map(\.baselineKey), "\(path)")
        }
    }

    @Test func aTraceThatCannotBeReadFailsAloneWithItsError() throws {
        let bad = directory.write("bad.jsonl", text: "{\"t\":0,\"ev\":\"nope\"}\n")
        let outcomes = TraceCheck(PreparedAnalysis(codec: .zstd)).run([Self.clean, bad, Self.faulty], workers: 2)
        #expect(outcomes.count == 3)
        #expect(try outcomes[0].get().count(.error) == 0)
        #expect(throws: TraceError.self) { try outcomes[1].get() }
        if case let .failure(error) = outcomes[1] {
            #expect(error.description == "\(bad):1: unknown event \"nope\" (column 13)")
        }
        #expect(try outcomes[2].get().count(.error) == 2)
    }

    /// The samples are named for what they hold: `fault-*` traces fail a check, the others pass.
    @Test func everyFaultSampleFailsAndEveryCleanSamplePasses() throws {
        let paths = PackagePaths.sampleTraces(extension: "lifetrace") + PackagePaths.sampleTraces(extension: "jsonl")
        let outcomes = TraceCheck(PreparedAnalysis(codec: .zstd)).run(paths, workers: 2)
        for (path, outcome) in zip(paths, outcomes) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(TraceCheck.fails([try outcome.get()], strict: false) == name.hasPrefix("fault-"), "\(name)")
        }
    }

    @Test func noTracesNoResults() {
        #expect(TraceCheck(PreparedAnalysis(codec: .zstd)).run([], workers: 4).isEmpty)
    }

    @Test func aBaselineAcceptsKnownFindingsAndKeepsNewOnes() throws {
        let faulty = try TraceAnalyzer.analyze(path: Self.faulty, codec: .zstd)
        let accepted = Set(faulty.findings.map { Baseline.key(file: $0.file, $0.baselineKey) })
        let check = TraceCheck(PreparedAnalysis(codec: .zstd), accepting: accepted)
        let results = try check.run([Self.faulty, Self.other], workers: 2).map { try $0.get() }
        #expect(results[0].findings.isEmpty)
        #expect(!TraceCheck.fails([results[0]], strict: true))
        #expect(TraceCheck.fails(results, strict: false), "the other trace's findings are new")
    }

    @Test func aBaselineThatIsNoCheckResultIsBadInput() throws {
        let notAResult = directory.write("baseline.json", text: #"{"findings":[]}"#)
        #expect(throws: TraceError.self) { try TraceCheck(PreparedAnalysis(), baselinePath: notAResult) }
        do {
            _ = try TraceCheck(PreparedAnalysis(), baselinePath: directory.file("missing.json"))
            Issue.record("a missing baseline was read")
        } catch {
            #expect(error.description == "\(directory.file("missing.json")): cannot open: No such file or directory")
        }
    }

    /// With `strict`, warnings fail as errors do: an inactive episode over a 1 s budget for scene "main" is LT054,
    /// a warning.
    @Test func strictFailsOnWarnings() throws {
        let config = directory.write("main.json", text: #"{"scenes":{"main":{"budgets":{"inactiveEpisode":"1s"}}}}"#)
        let prepared = try PreparedAnalysis(modelsDirectory: nil, configurationPath: config, codec: .zstd)
        let results = try TraceCheck(prepared).run(
            [PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")], workers: 1
        )
        .map { try $0.get() }
        #expect(results[0].findings.map(\.rule.id.rawValue) == ["LT054"])
        #expect(!TraceCheck.fails(results, strict: false))
        #expect(TraceCheck.fails(results, strict: true))
    }
}
