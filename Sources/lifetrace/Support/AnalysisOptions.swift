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

    /// Loads what the options name, once: the built-in models and every `*.json` of `--models` (in name order),
    /// and `--config`. A directory that cannot be read, a model that does not parse or a configuration that
    /// cannot be read is bad input.
    func prepare() throws(TraceError) -> PreparedAnalysis {
        var models = LifecycleModel.builtIn
        if let modelsDirectory {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: modelsDirectory)
            } catch {
                throw TraceError(.io, file: modelsDirectory, at: .file, "cannot read the models directory")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                try InputFileSize.check(modelsDirectory + "/" + name, limit: InputFileSize.configuration, "a lifecycle model")
                do {
                    models.append(try LifecycleModel(contentsOf: modelsDirectory + "/" + name))
                } catch {
                    throw TraceError(.malformed, file: error.file, at: .file, error.message)
                }
            }
        }
        return PreparedAnalysis(models: models, configuration: try config.map { (path) throws(TraceError) in
            try InputFileSize.check(path, limit: InputFileSize.configuration, "a configuration file")
            return try ConfigurationFile(path: path)
        })
    }
}

/// The models and the configuration file of ``AnalysisOptions``, loaded: what each trace is analyzed with.
struct PreparedAnalysis: Sendable {
    /// The built-in models and those of `--models`.
    let models: [LifecycleModel]
    /// `--config`, read.
    let configuration: ConfigurationFile?

    /// The configuration for a trace with `header` (the defaults without `--config`).
    func configuration(for header: TraceHeader?) throws(TraceError) -> AnalysisConfiguration {
        try configuration?.configuration(for: header) ?? .defaults
    }

    /// Opens the trace at `path` and the configuration for its header: what an analysis of it reads.
    func open(path: String) throws -> (reader: TraceReader, configuration: AnalysisConfiguration) {
        let reader = try TraceReader(path: path)
        return (reader, try configuration(for: reader.header))
    }

    /// Analyzes the trace at `path`, reading it once, with the configuration for its header.
    func analyze(path: String, recordTimeline: Bool = false) throws -> AnalysisResult {
        let (reader, configuration) = try open(path: path)
        return try TraceAnalyzer.analyze(reader, file: path, configuration: configuration, models: models,
                                         recordTimeline: recordTimeline)
    }
}
