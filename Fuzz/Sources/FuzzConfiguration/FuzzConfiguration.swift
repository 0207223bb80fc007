import FuzzSupport
import LifetraceAnalysis
import LifetraceChecking

/// Any bytes as a `lifetrace.json` and as a lifecycle model: refused with an error, or loaded; never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let path = FuzzInput.file("json")
    FuzzInput.write(data, size, to: path)
    _ = try? AnalysisConfiguration.load(path: path, for: nil)
    if let model = try? LifecycleModel(contentsOf: path) {
        let analyzer = TraceAnalyzer(file: "fuzz", header: nil, models: LifecycleModel.builtIn + [model])
        _ = analyzer.finish()
    }
    return 0
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzConfiguration_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzConfiguration($0, $1) }
}
