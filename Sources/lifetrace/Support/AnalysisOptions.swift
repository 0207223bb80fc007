import ArgumentParser
import LifetraceAnalysis
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

    /// Loads what the options name, once: the built-in models and every `*.json` of `--models` (in name order),
    /// and `--config`. A directory that cannot be read, a model that does not parse or a configuration that
    /// cannot be read is bad input.
    func prepare() throws(TraceError) -> PreparedAnalysis {
        try PreparedAnalysis(modelsDirectory: modelsDirectory, configurationPath: config, codec: .zstd)
    }
}
