import Foundation
package import LifetraceFormat

/// The files a command reads whole — a configuration, a lifecycle model, a baseline — are refused past a size,
/// before they are read: a file of hundreds of megabytes given by mistake must not take the memory it would.
package enum InputFileSize {
    /// The largest `lifetrace.json` (`--config`) or lifecycle model (`--models`): 8 MiB, more than 100,000
    /// scenes' budgets take (5 MB), read in under 128 MiB.
    package static let configuration = 8 << 20
    /// The largest baseline (`check --baseline`, a `check --format json` result): 32 MiB.
    package static let baseline = 32 << 20

    /// Fails, naming `path`, if the file there is larger than `limit` bytes (`what` says what it is).
    package static func check(_ path: String, limit: Int, _ what: String) throws(TraceError) {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let size = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.size] as? NSNumber,
              size.int64Value > Int64(limit)
        else { return }
        throw TraceError(.limitExceeded, file: path, at: .file,
                         "\(size.int64Value) bytes: \(what) may be at most \(limit >> 20) MiB")
    }
}
