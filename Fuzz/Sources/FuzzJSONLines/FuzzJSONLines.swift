import FuzzSupport

/// Any bytes as JSON Lines: a header line, then events, read line by line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let path = FuzzInput.file("jsonl")
    FuzzInput.write(data, size, to: path)
    FuzzInput.readTrace(path)
    return 0
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzJSONLines_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzJSONLines($0, $1) }
}
