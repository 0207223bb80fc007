import FuzzSupport
import LifetraceCore
import LifetraceImport

/// Any bytes as a unified-log capture: every derived event must be valid and in time order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogImport(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    var importer = LogImporter(selection: AppSelection(process: "App", bundleID: nil, pid: nil))
    var last: Int64 = 0
    func check(_ event: LifecycleEvent) {
        precondition(event.problem == nil, "derived an invalid event: \(event)")
        precondition(event.t >= last, "derived events go back in time")
        last = event.t
    }
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        number += 1
        importer.feed(line, number: number, check)
    }
    importer.finish(check)
    _ = importer.header(app: "App")
    return 0
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzLogImport_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzLogImport($0, $1) }
}
