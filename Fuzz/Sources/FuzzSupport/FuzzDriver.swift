/// libFuzzer's entry for a program with a `main` of its own: SwiftPM links every executable target with its
/// own entry point (`<Target>_main`), so each target's entry hands the command line and its test function to
/// libFuzzer here.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with this process's arguments (`-max_total_time=`, corpus directories, ...) on `test`.
public func runFuzzer(_ test: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}
