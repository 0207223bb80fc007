import Foundation
package import LifetraceAnalysis
package import LifetraceCore
package import LifetraceFormat
package import SystemPackage

/// The lifecycle models and the configuration file an analysis of many traces is made with, loaded once: what
/// `check`, `report`, `export`, `summarize` and `compare` analyze each trace with.
package struct PreparedAnalysis: Sendable {
    /// The built-in models and the extra ones.
    package let models: [LifecycleModel]
    /// The configuration file, read; `nil` for the defaults.
    package let configuration: ConfigurationFile?
    /// How the traces' data frames are decompressed.
    package let codec: FrameCodec
    /// What a trace named `-` is read from: standard input, or what a command run in a test's process is given.
    package var standardInput: FileDescriptor = .standardInput

    /// Models, configuration and codec as given.
    package init(
        models: [LifecycleModel] = LifecycleModel.builtIn, configuration: ConfigurationFile? = nil,
        codec: FrameCodec = .stored
    ) {
        self.models = models
        self.configuration = configuration
        self.codec = codec
    }

    /// Loads the built-in models and every `*.json` of `modelsDirectory` (in name order), and the configuration
    /// file at `configurationPath`.
    ///
    /// - Throws: bad input, naming the file: a directory that cannot be read, a model or configuration larger
    ///   than ``InputFileSize/configuration`` or that does not parse.
    package init(modelsDirectory: String?, configurationPath: String?, codec: FrameCodec) throws(TraceError) {
        var models = LifecycleModel.builtIn
        if let modelsDirectory {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: modelsDirectory)
            } catch {
                throw TraceError(.io, file: modelsDirectory, at: .file, "cannot read the models directory")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                let path = modelsDirectory + "/" + name
                do {
                    models.append(try LifecycleModel(contentsOf: path))
                } catch {
                    throw TraceError(.malformed, file: error.file, at: .file, error.message)
                }
            }
        }
        let configuration = try configurationPath.map { (path) throws(TraceError) in try ConfigurationFile(path: path) }
        self.init(models: models, configuration: configuration, codec: codec)
    }

    /// The configuration for a trace with `header` (the defaults without a configuration file).
    package func configuration(for header: TraceHeader?) throws(TraceError) -> AnalysisConfiguration {
        try configuration?.configuration(for: header) ?? .defaults
    }

    /// Opens the trace at `path` and the configuration for its header: what an analysis of it reads.
    package func open(path: String) throws(TraceError) -> (reader: TraceReader, configuration: AnalysisConfiguration) {
        let reader = try TraceReader(path: path, codec: codec, standardInput: standardInput)
        return (reader, try configuration(for: reader.header))
    }

    /// Analyzes the trace at `path`, reading it once, with the configuration for its header.
    package func analyze(path: String) throws(TraceError) -> AnalysisResult {
        let (reader, configuration) = try open(path: path)
        return try TraceAnalyzer.analyze(reader, file: path, configuration: configuration, models: models)
    }

    /// Analyzes the trace at `path` as ``analyze(path:)`` does, telling `observer(configuration)` as it goes (a
    /// report's timeline, made for the configuration of the trace's header).
    package func analyze(
        path: String, observer: (AnalysisConfiguration) -> any TimelineObserver
    ) throws(TraceError) -> AnalysisResult {
        let (reader, configuration) = try open(path: path)
        return try TraceAnalyzer.analyze(
            reader, file: path, configuration: configuration, models: models, observer: observer(configuration))
    }
}
