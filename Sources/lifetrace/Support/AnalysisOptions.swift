import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceZstd

/// The options of every command that analyzes traces (`check`, `report`, `export`, `summarize`, `compare`), and
/// the analysis they name (``PreparedAnalysis``): the models loaded once, each trace analyzed with the
/// configuration for its header, its frames decompressed with libzstd.
struct AnalysisOptions: ParsableArguments {
    @Option(help: "A lifetrace.json with budgets and rule severities.")
    var config: String?

    @Option(name: .customLong("models"), help: "A directory of extra lifecycle models (JSON) to check as well.")
    var modelsDirectory: String?

    /// The files the options name, which no output may be (``OutputFile/checkNotAnInput(_:inputs:)``): `--config`,
    /// `--models` and every `*.json` in it, the models it loads.
    var inputFiles: [String] {
        var files: [String] = []
        if let config { files.append(config) }
        if let modelsDirectory {
            files.append(modelsDirectory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: modelsDirectory)) ?? []
            files += names.filter { $0.hasSuffix(".json") }.map {
                (modelsDirectory as NSString).appendingPathComponent($0)
            }
        }
        return files
    }

    /// Loads what the options name, once: the built-in models and every `*.json` of `--models` (in name order),
    /// and `--config`; a trace named `-` is read from the standard input of `console`. A directory that cannot be
    /// read, a model that does not parse or a configuration that cannot be read is bad input.
    func prepare(on console: Console) throws(TraceError) -> PreparedAnalysis {
        var prepared = try PreparedAnalysis(modelsDirectory: modelsDirectory, configurationPath: config, codec: .zstd)
        prepared.standardInput = console.input
        return prepared
    }
}
