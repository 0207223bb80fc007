package import LifetraceCore

/// The models compiled for each scene manifest, lifecycle and configuration a reader of many traces met so far (a
/// handful at most): compiling is most of the cost of analyzing a small trace, so traces with the same header and
/// configuration share it.
package struct CompiledModels {
    private let models: [LifecycleModel]
    private var compiled: [ModelEngine.Blueprint] = []

    /// Compiles `models` as traces need them.
    package init(_ models: [LifecycleModel]) {
        self.models = models
    }

    /// An analyzer of the trace `file` with `header` and `configuration`, with the models compiled for them.
    package mutating func analyzer(file: String, header: TraceHeader?, configuration: AnalysisConfiguration)
        -> TraceAnalyzer
    {
        let blueprint: ModelEngine.Blueprint
        if let known = compiled.first(where: { $0.fits(header, configuration) }) {
            blueprint = known
        } else {
            blueprint = ModelEngine.Blueprint(
                models: models, manifest: header?.sceneManifest, lifecycle: header.followedLifecycle,
                configuration: configuration)
            if compiled.count < 16 { compiled.append(blueprint) }
        }
        return TraceAnalyzer(file: file, header: header, models: models, compiled: blueprint)
    }
}
