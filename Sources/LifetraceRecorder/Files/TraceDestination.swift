public import Foundation

/// Where a recorder started with ``Recorder/start(_:)`` writes its trace: always a new file, so that a launch
/// never overwrites the trace of the one before it (the one that shows how that one ended).
public enum TraceDestination: Sendable, Equatable {
    /// A new file per launch in a directory, named after the app, the launch's UTC time and the process id
    /// (`com.example.app-20261125T142311Z-4242.lifetrace`), keeping the directory within `retention`: the
    /// oldest traces are removed when the recorder starts.
    case directory(URL, retention: TraceRetention = TraceRetention())
    /// This file, if no file has its name yet; otherwise a new file beside it whose name adds the launch's
    /// UTC time and the process id (`run-20261125T142311Z-4242.lifetrace`).
    case file(URL)

    /// The directory lifetrace keeps an app's traces in when nothing else is said: `lifetrace` in the app's
    /// Application Support directory on Apple platforms (inside the app's container), and
    /// `$XDG_STATE_HOME/lifetrace` (or `~/.local/state/lifetrace`) elsewhere.
    public static var standardDirectory: URL {
        #if canImport(Darwin)
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return base.appendingPathComponent("lifetrace", isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("lifetrace", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/lifetrace", isDirectory: true)
        #endif
    }

    /// A new file per launch in ``standardDirectory``, within the default retention.
    public static var standard: TraceDestination {
        .directory(standardDirectory)
    }

    /// The destination a `LIFETRACE_PATH` value names (see ``Recorder/EnvironmentKey/path``): a directory if
    /// it ends with `/` or names an existing directory, else a file. A relative path is taken in the app's
    /// container: its Documents directory on Apple platforms (what `xcrun simctl get_app_container UDID
    /// BUNDLE data` prints, plus `Documents`); the current directory elsewhere.
    public static func path(_ given: String, relativeTo base: URL = TraceDestination.containerDirectory)
        -> TraceDestination
    {
        let url = given.hasPrefix("/") ? URL(fileURLWithPath: given) : base.appendingPathComponent(given)
        var isDirectory: ObjCBool = false
        if given.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                && isDirectory.boolValue)
        {
            return .directory(url)
        }
        return .file(url)
    }

    /// Where relative `LIFETRACE_PATH`s are taken: the app's Documents directory on Apple platforms, the
    /// current directory elsewhere.
    public static var containerDirectory: URL {
        #if canImport(Darwin)
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        #else
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        #endif
    }
}

/// How many earlier traces a ``TraceDestination/directory(_:retention:)`` keeps.
///
/// Counted per app (or service): the traces of the recorder's own base name, so that apps or services sharing a
/// directory do not prune each other's. On macOS and Linux a trace another recorder is still writing is left
/// alone (the recorder holds an advisory lock on it while it writes; a file system without locks does not keep
/// it); on Apple's device platforms, where no lock is held, an app's launches do not run at once.
public struct TraceRetention: Sendable, Equatable {
    /// The most traces kept, the new one included.
    public var maxCount: Int
    /// The most bytes the earlier traces may take together; the oldest go first. The newest earlier trace (the last
    /// session's, which ``Recorder/previousTrace(in:)`` reads) stays whatever its size, as long as `maxCount` keeps it.
    public var maxBytes: Int64

    /// Keeps at most `maxCount` traces (20 by default) and `maxBytes` of earlier ones (64 MiB by default).
    public init(maxCount: Int = 20, maxBytes: Int64 = 64 << 20) {
        self.maxCount = max(maxCount, 1)
        self.maxBytes = max(maxBytes, 0)
    }
}
