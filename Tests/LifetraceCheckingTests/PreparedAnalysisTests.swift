import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `--models` and `--config` loaded once, as `check`, `report`, `export`, `summarize` and `compare` share them.
@Suite struct PreparedAnalysisTests {
    let directory = TemporaryDirectory()
    static let slow = PackagePaths.path("SampleTraces/fault-slow-background-handler.lifetrace")

    /// onResume straight after onCreate: AND002 of the extra model, which the built-in models do not know.
    @Test func extraModelsAreCheckedAsWell() throws {
        let fixture = try ExtraModelFixture(in: directory)
        let (models, trace) = (fixture.models, fixture.trace)
        let prepared = try PreparedAnalysis(modelsDirectory: models, configurationPath: nil, codec: .zstd)
        #expect(prepared.models.count == LifecycleModel.builtIn.count + 1)
        #expect(try prepared.analyze(path: trace).findings.map(\.rule.id.rawValue) == ["AND002"])
        #expect(
            try PreparedAnalysis(codec: .zstd).analyze(path: trace).findings.allSatisfy {
                $0.rule.id.rawValue != "AND002"
            })
    }

    @Test func aModelsDirectoryThatCannotBeReadIsBadInput() {
        let missing = directory.path + "/no-such-models"
        #expect { try PreparedAnalysis(modelsDirectory: missing, configurationPath: nil, codec: .zstd) } throws: {
            ($0 as? TraceError)?.description == "\(missing): cannot read the models directory"
        }
    }

    @Test func aModelThatDoesNotParseIsBadInputNamingItsFile() throws {
        let models = directory.path + "/broken-models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        let broken = directory.write("broken-models/broken.json", text: "{")
        #expect { try PreparedAnalysis(modelsDirectory: models, configurationPath: nil, codec: .zstd) } throws: {
            ($0 as? TraceError)?.file == broken
        }
    }

    @Test func aConfigChangesBudgetsAndSeverities() throws {
        func errors(_ config: String?) throws -> Int {
            let prepared = try PreparedAnalysis(modelsDirectory: nil, configurationPath: config, codec: .zstd)
            return try prepared.analyze(path: Self.slow).count(.error)
        }
        #expect(try errors(nil) > 0)
        #expect(try errors(directory.write("lenient.json", text: #"{"budgets":{"didEnterBackground":"10s"}}"#)) == 0)
        #expect(try errors(directory.write("warn.json", text: #"{"rules":{"LT050":"warning"}}"#)) == 0)
        #expect(
            try errors(directory.write("styled.json", text: #"{"styles":{"uikit-scenes":{"rules":{"LT050":"off"}}}}"#))
                == 0)
        #expect(
            try errors(directory.write("s1.json", text: #"{"scenes":{"S1":{"budgets":{"didEnterBackground":"10s"}}}}"#))
                == 0)
        #expect(
            try errors(directory.write("s9.json", text: #"{"scenes":{"S9":{"budgets":{"didEnterBackground":"10s"}}}}"#))
                > 0)
        let broken = directory.write("broken.json", text: #"{"budgets":{"coffee":"5m"}}"#)
        #expect { try errors(broken) } throws: { "\($0)".contains("unknown budget \"coffee\"") }
    }

    @Test func aConfigurationOverItsSizeLimitIsRefusedBeforeItIsRead() throws {
        let huge = directory.write("huge.json", [UInt8](repeating: 0x20, count: InputFileSize.configuration + 1))
        #expect { try PreparedAnalysis(modelsDirectory: nil, configurationPath: huge, codec: .zstd) } throws: {
            ($0 as? TraceError)?.description
                == "\(huge): \(InputFileSize.configuration + 1) bytes: a configuration file may be at most 8 MiB"
        }
    }
}
