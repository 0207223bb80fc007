import Foundation
import LifetraceTestSupport
import Testing

/// The second set's promise for every command, not only the one each reproducer was found with: each
/// reproducer file through every command that reads its kind of input ends with a documented status (0, 1 or
/// 2, never a signal) in under 128 MiB, measured with GNU time.
extension ReliabilityTests {
    /// The commands that read a trace, each writing what it writes into the test's directory.
    func traceCommands() -> [[String]] {
        [
            ["check"], ["check", "--format", "json"], ["check", "--format", "github"], ["report"],
            ["report", "-o", directory.file("every.html")], ["summarize", "-o", directory.file("every.sum.jsonl")],
            ["export", "--format", "chrome", "-o", directory.file("every.json")],
            ["export", "--format", "perfetto", "-o", directory.file("every.pftrace")], ["info"], ["info", "--json"],
            ["dump"], ["convert", "-", directory.file("every.jsonl")],
            ["recover", "-", directory.file("every.lifetrace")],
        ]
    }

    @Test(
        .integration,
        arguments: [
            "recover_block_size_sigill.lifetrace", "scene_name_16MiB_x10.lifetrace",
            "overlapping_handlers_100k.lifetrace", "ctl_chars_in_names.jsonl", "convert_2MiB_scene.lifetrace",
        ])
    func everyTraceCommandEndsWithAStatusInBoundedMemory(reproducer: String) throws {
        let path = Self.repro(reproducer)
        for command in traceCommands() {
            // `convert` and `recover` take the input before the output: `-` marks where it goes.
            let arguments = command.contains("-") ? command.map { $0 == "-" ? path : $0 } : command + [path]
            let (result, peak) = try measured(arguments)
            #expect(result.status <= 2, "\(arguments): status \(result.status): \(result.stderr)")
            #expect(peak < 128, "\(arguments) took \(peak) MiB")
        }
        // The gate, with the reproducer on both sides.
        let (compared, peak) = try measured(["compare", "--base", path, "--new", path])
        #expect(compared.status <= 2, "compare: status \(compared.status): \(compared.stderr)")
        #expect(peak < 128, "compare took \(peak) MiB")
    }

    @Test(.integration) func compareAndImportReproducersEndWithAStatusInBoundedMemory() throws {
        let base = Self.repro("compare_int64max_base.sum.jsonl")
        let new = Self.repro("compare_int64max_new.sum.jsonl")
        for format in ["text", "json", "markdown"] {
            let (result, peak) = try measured(["compare", "--format", format, "--base", base, "--new", new])
            #expect(result.status <= 2, "compare --format \(format): \(result.status): \(result.stderr)")
            #expect(peak < 128, "compare --format \(format) took \(peak) MiB")
        }
        let log = Self.repro("import_strict_two_lines.log")
        for strict in [[], ["--strict"]] {
            let (result, peak) = try measured(
                ["import"] + strict + [
                    log, "-o", directory.file("every-import.lifetrace"),
                    "--process", "BareExample",
                ])
            #expect(result.status <= 2, "import \(strict): \(result.status): \(result.stderr)")
            #expect(peak < 128, "import \(strict) took \(peak) MiB")
        }
    }
}
