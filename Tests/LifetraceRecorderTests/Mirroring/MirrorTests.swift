import Foundation
import LifetraceCore
import LifetraceImport
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// The log mirror carries the trace: `lifetrace import` of its lines gives the file's events, times and
/// handler durations, a handler that never returns included.
@Suite struct MirrorTests {
    let directory = TemporaryDirectory()

    /// Lines the mirror wrote.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ bytes: [UInt8]) {
            lock.lock()
            text += String(decoding: bytes, as: UTF8.self)
            lock.unlock()
        }
        var all: String {
            lock.lock()
            defer { lock.unlock() }
            return text
        }
    }

    /// A callback with its duration, whether written whole or as an unfinished event and its `handler.return`;
    /// attributes aside (the log line carries none).
    static func normalized(_ events: [LifecycleEvent]) -> [LifecycleEvent] {
        var result: [LifecycleEvent] = []
        for event in events {
            if event.kind == .handlerReturn {
                if let index = result.lastIndex(where: {
                    $0.eventName == event.name && $0.scene == event.scene && $0.dur == nil
                }) {
                    result[index].dur = event.dur
                }
                continue
            }
            var plain = event
            plain.attrs = nil
            result.append(plain)
        }
        return result
    }

    @Test func importingTheMirrorGivesTheFilesEvents() throws {
        let lines = Lines()
        var configuration = RecorderConfiguration(flushInterval: .seconds(3600), mirror: .standardError)
        configuration.mirrorOutput = { lines.append($0) }
        let path = directory.file("mirrored.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), app: "com.example.app", configuration: configuration)
        recorder.measure(.appDidFinishLaunching) { usleep(2000) }
        recorder.record(.sceneWillConnect, scene: "S1")
        let handler = recorder.beginSpan(.sceneDidEnterBackground, scene: "S1")
        recorder.record(.taskBegin, task: 7, name: "save")
        usleep(3000)
        handler.end()
        // A handler that is still running when the trace ends (its process killed inside it).
        _ = recorder.beginSpan(.appWillTerminate)
        try recorder.flush()
        try recorder.close()
        let file = try RecorderTraces.read(path).events

        let image = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
        var importer = LogImporter(selection: AppSelection(process: image))
        var imported: [LifecycleEvent] = []
        for (number, line) in lines.all.split(separator: "\n").enumerated() {
            importer.feed(line, number: number + 1) { imported.append($0) }
        }
        importer.finish { imported.append($0) }

        let expected = Self.normalized(file)
        let got = Self.normalized(imported)
        #expect(got.map(\.eventName) == expected.map(\.eventName))
        #expect(got.map(\.scene) == expected.map(\.scene))
        #expect(got.map(\.dur) == expected.map(\.dur))
        // The log keeps microseconds; both count from the process's start.
        for (a, b) in zip(got, expected) { #expect(abs(a.t - b.t) < 1000, "\(a.eventName)") }
        let killed = try #require(expected.last)
        #expect(killed.kind == .appWillTerminate && killed.dur == nil)
        #expect(expected.first { $0.kind == .sceneDidEnterBackground }?.dur ?? 0 >= 3_000_000)
    }
}
