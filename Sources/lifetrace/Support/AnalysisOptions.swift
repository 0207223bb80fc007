import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// The options of every command that analyzes traces (`check`, `report`, `export`), and the one place they
/// become an analysis: the models loaded once, each trace analyzed with the configuration for its header.
struct AnalysisOptions: ParsableArguments {
    @Option(help: "A lifetrace.json with budgets and rule severities.")
    var config: String?

    @Option(name: .customLong("models"), help: "A directory of extra lifecycle models (JSON) to check as well.")
    var modelsDirectory: String?

    /// The built-in models and every `*.json` of `--models`, in name order; a directory that cannot be read or
    /// a model that does not parse is bad input.
    func loadModels() throws(TraceError) -> [LifecycleModel] {
        var models = LifecycleModel.builtIn
        guard let modelsDirectory else { return models }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: modelsDirectory)
        } catch {
            throw TraceError(.io, file: modelsDirectory, at: .file, "cannot read the models directory")
        }
        for name in names.sorted() where name.hasSuffix(".json") {
            do {
                models.append(try LifecycleModel(contentsOf: modelsDirectory + "/" + name))
            } catch {
                throw TraceError(.malformed, file: error.file, at: .file, error.message)
            }
        }
        return models
    }

    /// The configuration `--config` gives for a trace with `header` (the defaults without one).
    func configuration(for header: TraceHeader?) throws(TraceError) -> AnalysisConfiguration {
        guard let config else { return .defaults }
        return try AnalysisConfiguration.load(path: config, for: header)
    }

    /// Analyzes the trace at `path`, reading it once, with the configuration `--config` gives for its header.
    func analyze(path: String, models: [LifecycleModel], recordTimeline: Bool = false) throws -> AnalysisResult {
        let reader = try TraceReader(path: path)
        let configuration = try configuration(for: reader.header)
        return try TraceAnalyzer.analyze(reader, file: path, configuration: configuration, models: models,
                                         recordTimeline: recordTimeline)
    }
}
