import Foundation
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// One trace per launch, never over another, kept within a retention, listed newest first.
@Suite struct TraceDirectoryTests {
    let directory = TemporaryDirectory()

    @Test func aNameSaysTheAppTheLaunchAndTheProcess() throws {
        // 2026-11-25 14:23:11.75 UTC = 1,795,616,591.75 s after 1970 (20,782 days and 51,791.75 s).
        let launch: Int64 = 1_795_616_591_750_000_000
        let name = TraceFileName(base: "com.example.app", launchUnixNanoseconds: launch, pid: 4242)
        #expect(name.fileName == "com.example.app-20261125T142311Z-4242.lifetrace")
        let read = try #require(TraceFileName(fileName: name.fileName))
        #expect(read.base == "com.example.app" && read.pid == 4242)
        #expect(read.launchUnixNanoseconds == 1_795_616_591_000_000_000)
        #expect(
            TraceFileName(base: "My App/-x", launchUnixNanoseconds: 0, pid: 1).fileName
                == "My_App__x-19700101T000000Z-1.lifetrace")
        #expect(TraceFileName(base: "..", launchUnixNanoseconds: 0, pid: 1).base == "trace")
        for other in [
            "run.lifetrace", "a-b-c.lifetrace", "x-20261125T142311-1.lifetrace", "x-20261325T142311Z-1.lifetrace",
            "x-20261125T142311Z-1.jsonl",
        ] {
            #expect(TraceFileName(fileName: other) == nil, "\(other)")
        }
    }

    @Test func aFileThatExistsIsNeverReplaced() throws {
        let url = URL(fileURLWithPath: directory.file("run.lifetrace"))
        let first = try Recorder(file: url)
        first.mark("first")
        try first.close()
        let second = try Recorder(file: url)
        second.mark("second")
        try second.close()
        #expect(first.file == url)
        let other = try #require(second.file)
        #expect(other != url)
        #expect(TraceFileName(fileName: other.lastPathComponent)?.base == "run")
        #expect(try RecorderTraces.read(url.path).events.compactMap(\.label) == ["first"])
        #expect(try RecorderTraces.read(other.path).events.compactMap(\.label) == ["second"])
    }

    /// Earlier traces beyond the retention go, oldest first; files the recorder did not name stay.
    @Test func aDirectoryKeepsItsRetentionAndListsTheNewestFirst() throws {
        let folder = URL(fileURLWithPath: directory.file("traces"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let day: Int64 = 86_400_000_000_000
        // Four earlier launches on 2020-01-01 ... 2020-01-04 (18,262 days after 1970), 1,000 bytes each.
        for index in 0..<4 {
            let name = TraceFileName(
                base: "app", launchUnixNanoseconds: (18_262 + Int64(index)) * day, pid: Int64(100 + index))
            try Data(count: 1000).write(to: folder.appendingPathComponent(name.fileName))
        }
        try Data(count: 10).write(to: folder.appendingPathComponent("notes.lifetrace"))
        let recorder = try Recorder(
            destination: .directory(folder, retention: TraceRetention(maxCount: 3, maxBytes: 1_000_000)),
            app: "app", sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: nil,
            capture: nil, configuration: .init(), probes: .system)
        try recorder.close()
        let listed = Recorder.traces(in: folder)
        #expect(
            listed.map(\.url.lastPathComponent) == [
                try #require(recorder.file).lastPathComponent,
                "app-20200104T000000Z-103.lifetrace", "app-20200103T000000Z-102.lifetrace", "notes.lifetrace",
            ])
        #expect(listed[1].processID == 103 && listed[1].byteCount == 1000)
        #expect(listed[1].launchDate == Date(timeIntervalSince1970: 1_578_096_000))
        #expect(Recorder.previousTrace(in: folder)?.url.lastPathComponent == "app-20200104T000000Z-103.lifetrace")

        // By bytes: the earlier traces may take 1,500 bytes, so one of 1,000 stays.
        let second = try Recorder(
            destination: .directory(folder, retention: TraceRetention(maxCount: 10, maxBytes: 1500)),
            app: "app", sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: nil,
            capture: nil, configuration: .init(), probes: .system)
        try second.close()
        let names = Set(Recorder.traces(in: folder).map(\.url.lastPathComponent))
        #expect(names.contains(try #require(second.file).lastPathComponent))
        #expect(names.contains("notes.lifetrace"))
        #expect(!names.contains("app-20200103T000000Z-102.lifetrace"))
        // The first recorder's trace (a few hundred bytes, the newest earlier one) and 103 make 1,500 at most.
        #expect(
            names == [
                try #require(second.file).lastPathComponent, try #require(recorder.file).lastPathComponent,
                "app-20200104T000000Z-103.lifetrace", "notes.lifetrace",
            ])
    }

    /// A directory several apps or services share keeps each one's traces within its own retention: another's
    /// traces stay, and so does a trace another recorder is still writing, until it is closed.
    @Test func pruningLeavesOtherAppsTracesAndTracesBeingWritten() throws {
        let folder = URL(fileURLWithPath: directory.file("shared"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let day: Int64 = 86_400_000_000_000
        // Another app's two traces of 2020-01-01 and 2020-01-02 (one named `app_2`, as `app-2` is sanitized),
        // and this app's of 2020-01-03, with a counter.
        for (index, base) in ["other", "app-2", "app"].enumerated() {
            var name = TraceFileName(base: base, launchUnixNanoseconds: (18_262 + Int64(index)) * day, pid: 100)
            name.counter = index == 2 ? 2 : nil
            try Data(count: 100).write(to: folder.appendingPathComponent(name.fileName))
        }
        let others: Set = ["other-20200101T000000Z-100.lifetrace", "app_2-20200102T000000Z-100.lifetrace"]
        func recorder() throws -> Recorder {
            try Recorder(
                destination: .directory(folder, retention: TraceRetention(maxCount: 1, maxBytes: 1_000_000)),
                app: "app", sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: nil,
                capture: nil, configuration: .init(), probes: .system)
        }
        func names() -> Set<String> { Set(Recorder.traces(in: folder).map(\.url.lastPathComponent)) }
        let running = try recorder()
        let runningName = try #require(running.file).lastPathComponent
        #expect(names() == others.union([runningName]))
        let next = try recorder()
        let nextName = try #require(next.file).lastPathComponent
        if SystemInterface.holdsFileLocks {
            // A retention of one: the running trace stays while it is written.
            #expect(running.traceFile?.isLockHeld == true)
            #expect(names() == others.union([runningName, nextName]))
            try running.close()
            #expect(running.traceFile?.isLockHeld == false)
        } else {
            // No lock on Apple's device platforms, where one app's launches never overlap.
            #expect(names() == others.union([nextName]))
            try running.close()
        }
        try next.close()
        let last = try recorder()
        #expect(names() == others.union([try #require(last.file).lastPathComponent]))
        try last.close()
    }

    /// Two launches of one process in one second: the second's name has a counter after the base, which no
    /// base has (a base has no `-`), and which reads back as the same base.
    @Test func aCounterFollowsTheBaseAndKeepsItsApp() throws {
        var name = TraceFileName(base: "com.example.app", launchUnixNanoseconds: 0, pid: 7)
        name.counter = 3
        #expect(name.fileName == "com.example.app-3-19700101T000000Z-7.lifetrace")
        let read = try #require(TraceFileName(fileName: name.fileName))
        #expect(read == name && read.isOfBase("com.example.app"))
        #expect(
            TraceFileName(base: "com.example.app-3", launchUnixNanoseconds: 0, pid: 7).fileName
                == "com.example.app_3-19700101T000000Z-7.lifetrace")
        #expect(
            try #require(TraceFileName(fileName: "com.example.app_3-19700101T000000Z-7.lifetrace")).isOfBase(
                "com.example.app") == false)
        #expect(try #require(TraceFileName(fileName: "x-+2-19700101T000000Z-7.lifetrace")).counter == nil)
    }

    @Test func lifetracePathNamesAFileOrADirectoryInTheContainer() {
        let base = URL(fileURLWithPath: "/container/Documents")
        #expect(
            TraceDestination.path("run.lifetrace", relativeTo: base)
                == .file(URL(fileURLWithPath: "/container/Documents/run.lifetrace")))
        #expect(
            TraceDestination.path("/tmp/x/run.lifetrace", relativeTo: base)
                == .file(URL(fileURLWithPath: "/tmp/x/run.lifetrace")))
        #expect(
            TraceDestination.path("traces/", relativeTo: base)
                == .directory(URL(fileURLWithPath: "/container/Documents/traces/")))
        #expect(
            TraceDestination.path(directory.path, relativeTo: base) == .directory(URL(fileURLWithPath: directory.path)))
    }

    /// The bytes of earlier traces never remove the last session's trace, however large: it is what
    /// `previousTrace(in:)` reads at this launch. Older ones go first, as before.
    @Test func theLastSessionsTraceStaysWhateverItsSize() throws {
        let folder = URL(fileURLWithPath: directory.file("large"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let day: Int64 = 86_400_000_000_000
        let older = TraceFileName(base: "app", launchUnixNanoseconds: 18_262 * day, pid: 100).fileName
        let last = TraceFileName(base: "app", launchUnixNanoseconds: 18_263 * day, pid: 101).fileName
        try Data(count: 500).write(to: folder.appendingPathComponent(older))
        try Data(count: 5000).write(to: folder.appendingPathComponent(last))
        let recorder = try Recorder(
            destination: .directory(folder, retention: TraceRetention(maxCount: 10, maxBytes: 1000)),
            app: "app", sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: nil,
            capture: nil, configuration: .init(), probes: .system)
        #expect(Recorder.previousTrace(in: folder)?.url.lastPathComponent == last)
        try recorder.close()
        #expect(
            Set(Recorder.traces(in: folder).map(\.url.lastPathComponent)) == [
                try #require(recorder.file).lastPathComponent, last,
            ])
    }

    #if canImport(Darwin)
    /// On Apple platforms a trace is kept out of the user's backups (Apple, "Optimizing your app's data for iCloud
    /// backup"), whether the recorder names it in a directory or is given its path; a file beside it is not touched.
    @Test func tracesAreExcludedFromBackup() throws {
        let other = URL(fileURLWithPath: directory.file("notes.txt"))
        try Data("mine".utf8).write(to: other)
        let named = try Recorder(
            destination: .directory(URL(fileURLWithPath: directory.file("traces"))), app: "com.example.app",
            sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: nil, capture: nil,
            configuration: .init(), probes: .system)
        let given = try Recorder(file: URL(fileURLWithPath: directory.file("given.lifetrace")))
        for recorder in [named, given] {
            let file = try #require(recorder.file)
            #expect(
                try file.resourceValues(forKeys: [.isExcludedFromBackupKey]).isExcludedFromBackup == true,
                "\(file.path)")
            try recorder.close()
        }
        #expect(try other.resourceValues(forKeys: [.isExcludedFromBackupKey]).isExcludedFromBackup == false)
    }
    #endif
}

/// Launches that start at once in one directory (P7 of the third set of reproducers): none prunes another's trace.
extension TraceDirectoryTests {
    /// What the threads of one round created: each trace's file and lock.
    private final class Created: @unchecked Sendable {
        private let lock = NSLock()
        private var files: [(url: URL, lock: TraceFileLock)] = []
        func add(_ url: URL, _ held: TraceFileLock) { lock.withLock { files.append((url, held)) } }
        var all: [(url: URL, lock: TraceFileLock)] { lock.withLock { files } }
    }

    /// Eight recorders create their traces at once in one directory with a retention of one, 100 times: each
    /// prunes the others' to its retention, but never one whose recorder holds it. Once created under its name
    /// the file is already locked, so no pruner meets it unlocked.
    @Test func retentionNeverRemovesATraceAnotherRecorderIsWriting() throws {
        guard SystemInterface.holdsFileLocks else { return }
        var missing: [String] = []
        for round in 0..<100 {
            let folder = URL(fileURLWithPath: directory.file("race-\(round)"))
            let created = Created()
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let destination = TraceDestination.directory(folder, retention: TraceRetention(maxCount: 1))
                if let file = try? TraceDirectory.create(
                    destination, base: "app", launchUnixNanoseconds: Int64(round) * 1_000_000_000,
                    pid: Int64(index + 1))
                {
                    created.add(file.url, file.lock)
                }
            }
            let files = created.all
            #expect(files.count == 8)
            missing += files.filter { !FileManager.default.fileExists(atPath: $0.url.path) }.map(
                \.url.lastPathComponent)
            for file in files { file.lock.release() }
            // No hidden file of a creation is left behind.
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
        }
        #expect(missing.isEmpty, "traces pruned while their recorder held them: \(missing)")
    }
}
