import FuzzSupport

/// Any bytes as JSON Lines: a header line, then events, read line by line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    FuzzInput.fuzzTrace(data, size, suffix: "jsonl")
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzJSONLines_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzJSONLines($0, $1) }
}
