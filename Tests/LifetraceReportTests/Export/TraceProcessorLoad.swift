import Foundation
import LifetraceTestSupport
import Testing

/// One trace loaded into Perfetto's own trace processor by `scripts/perfetto/trace-processor.mjs` (the
/// WebAssembly build Perfetto UI v52 runs, under node), with the results of the queries run over it.
struct TraceProcessorLoad: Decodable {
    /// A `stats` entry of severity `error` or `data_loss` with a value above 0: what Perfetto UI shows as an
    /// import error.
    struct ImportError: Decodable, CustomStringConvertible {
        var name: String
        var severity: String
        var value: Int
        var description: String { "\(name) = \(value) (\(severity))" }
    }

    /// A cell of a query's result.
    enum Cell: Decodable, Hashable {
        case null
        case integer(Int)
        case real(Double)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let integer = try? container.decode(Int.self) {
                self = .integer(integer)
            } else if let real = try? container.decode(Double.self) {
                self = .real(real)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        var integer: Int? { if case .integer(let value) = self { value } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// The rows one query returned.
    struct Result: Decodable {
        var sql: String
        var columns: [String]
        var rows: [[Cell]]
    }

    /// The trace processor's version line, e.g. `Perfetto v52.0-6b9586def (…)`.
    var version: String
    /// How long the trace processor took to load the file, from its first byte to the end of its import.
    var loadSeconds: Double
    /// The size of the file loaded.
    var bytes: Int
    var importErrors: [ImportError]
    /// One per query, in order.
    var results: [Result]

    enum CodingKeys: String, CodingKey {
        case version = "trace_processor"
        case loadSeconds = "load_seconds"
        case bytes
        case importErrors = "import_errors"
        case results
    }

    /// Loads `path` and runs `queries` over it; a driver that cannot run (no node, no trace processor build,
    /// a load or query failure) fails the test with what the driver said.
    static func load(_ path: String, queries: [String]) throws -> TraceProcessorLoad {
        let node = try #require(which("node"), "no node on PATH: scripts/setup --with-perfetto installs it")
        let driver = PackagePaths.path("scripts/perfetto/trace-processor.mjs")
        let result = try run(node, [driver, path] + queries)
        try #require(result.status == 0, "trace-processor.mjs exited \(result.status): \(result.stderr)")
        return try JSONDecoder().decode(TraceProcessorLoad.self, from: Data(result.stdout.utf8))
    }
}
