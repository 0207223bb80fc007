import Foundation
import LifetraceFormat

/// Creates the file of a launch's trace, never over an earlier one, and keeps a directory of traces within
/// its retention.
enum TraceDirectory {
    /// A listed trace and what its name says.
    struct Entry {
        var trace: RecordedTrace
        var name: TraceFileName?
    }

    /// Creates the file `destination` names for a launch at `launchUnixNanoseconds` of process `pid`, locked
    /// while it is written (``TraceFileLock``), and prunes a directory destination to its retention (never the
    /// new file, locked before the pruning begins).
    static func create(_ destination: TraceDestination, base: String, launchUnixNanoseconds: Int64, pid: Int64)
        throws(TraceError) -> (sink: FileSink, url: URL, lock: TraceFileLock)
    {
        switch destination {
        case let .file(url):
            try makeDirectory(url.deletingLastPathComponent())
            if let created = try createNew(url) { return created }
            let stem = url.deletingPathExtension().lastPathComponent
            return try createNamed(
                in: url.deletingLastPathComponent(), base: stem, launch: launchUnixNanoseconds,
                pid: pid)
        case let .directory(directory, retention):
            try makeDirectory(directory)
            let created = try createNamed(in: directory, base: base, launch: launchUnixNanoseconds, pid: pid)
            prune(directory, base: base, keeping: created.url, within: retention)
            return created
        }
    }

    /// A new file named for the launch in `directory`, locked (a counter joins the base in the unlikely case that
    /// the same process started twice in one second: ``TraceFileName/counter``).
    private static func createNamed(in directory: URL, base: String, launch: Int64, pid: Int64)
        throws(TraceError) -> (sink: FileSink, url: URL, lock: TraceFileLock)
    {
        for attempt in 1...1000 {
            var name = TraceFileName(base: base, launchUnixNanoseconds: launch, pid: pid)
            name.counter = attempt == 1 ? nil : attempt
            if let created = try createNew(directory.appendingPathComponent(name.fileName)) { return created }
        }
        throw TraceError(.io, file: directory.path, at: .file, "cannot create a new trace: too many with the same name")
    }

    /// The file at `url`, created new and locked (``TraceFileLock``) before anything else can see it unlocked;
    /// `nil` if a file has that name.
    ///
    /// Where locks are held, the file is created under a hidden name no pruner lists (`.NAME.PID.new`), locked,
    /// and only then linked to `url` (`link(2)`, which fails rather than replace a file): another process pruning
    /// the directory finds it at its name already locked, never in the moment between its creation and its lock.
    /// A file system that gives no file a second name gets the file created at `url` and locked at once.
    private static func createNew(_ url: URL) throws(TraceError) -> (sink: FileSink, url: URL, lock: TraceFileLock)? {
        guard SystemInterface.holdsFileLocks else { return try createInPlace(url) }
        let hidden = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(SystemInterface.processID()).new").path
        // A hidden file left by a process of this number that died in the moment it exists.
        try? FileManager.default.removeItem(atPath: hidden)
        guard let sink = try FileSink.createNew(path: hidden, naming: url.path) else { return try createInPlace(url) }
        let lock = TraceFileLock(path: hidden)
        let outcome = SystemInterface.link(hidden, to: url.path)
        try? FileManager.default.removeItem(atPath: hidden)
        switch outcome {
        case .linked:
            return (sink, url, lock)
        case .exists:
            lock.release()  // The sink closes its descriptor as it goes.
            return nil
        case .unsupported:
            lock.release()
            return try createInPlace(url)
        }
    }

    /// The file at `url`, created new and then locked; `nil` if a file has that name.
    private static func createInPlace(_ url: URL) throws(TraceError) -> (sink: FileSink, url: URL, lock: TraceFileLock)?
    {
        guard let sink = try FileSink.createNew(path: url.path) else { return nil }
        return (sink, url, TraceFileLock(path: url.path))
    }

    private static func makeDirectory(_ directory: URL) throws(TraceError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw TraceError(
                .io, file: directory.path, at: .file, "cannot create the directory: \(error.localizedDescription)")
        }
        // New files take their directory's class: a trace created while the device is locked (a background launch)
        // in an app whose files are `complete` by default.
        FileProtection.keepWritableAfterFirstUnlock(directory.path)
    }

    /// The traces in `directory`, the most recent launch first, then the others by name.
    static func list(_ directory: URL) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var entries: [Entry] = []
        for fileName in names where fileName.hasSuffix("." + TraceFileName.pathExtension) {
            let url = directory.appendingPathComponent(fileName)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            let name = TraceFileName(fileName: fileName)
            let launch = name.map { Date(timeIntervalSince1970: Double($0.launchUnixNanoseconds) / 1e9) }
            entries.append(
                Entry(
                    trace: RecordedTrace(url: url, launchDate: launch, processID: name?.pid, byteCount: size),
                    name: name))
        }
        return entries.sorted { a, b in
            switch (a.name, b.name) {
            case let (x?, y?):
                if x.launchUnixNanoseconds != y.launchUnixNanoseconds {
                    return x.launchUnixNanoseconds > y.launchUnixNanoseconds
                }
                return a.trace.url.lastPathComponent > b.trace.url.lastPathComponent
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return a.trace.url.lastPathComponent < b.trace.url.lastPathComponent
            }
        }
    }

    /// Removes the oldest traces of `base` the recorder named in `directory` beyond `retention`'s count, then
    /// while the earlier ones take more than its bytes, but for the newest of them: the last session's trace, which
    /// ``Recorder/previousTrace(in:)`` reads at this launch, stays whatever its size. Never `kept`, never a file whose name the recorder did not
    /// write, never another app's or service's (a directory several share: a Mac's Application Support, a
    /// service's `LIFETRACE_PATH`), and never one a recorder is still writing (``TraceFileLock``).
    static func prune(_ directory: URL, base: String, keeping kept: URL, within retention: TraceRetention) {
        var remaining = list(directory).filter { entry in
            guard let name = entry.name, name.isOfBase(base),
                entry.trace.url.lastPathComponent != kept.lastPathComponent
            else { return false }
            return !SystemInterface.isLockedForWriting(entry.trace.url.path)
        }
        var bytes = remaining.reduce(0) { $0 + $1.trace.byteCount }
        // The new trace counts towards maxCount.
        while remaining.count > retention.maxCount - 1 || (bytes > retention.maxBytes && remaining.count > 1) {
            guard let oldest = remaining.popLast() else { break }
            bytes -= oldest.trace.byteCount
            try? FileManager.default.removeItem(at: oldest.trace.url)
        }
    }
}
