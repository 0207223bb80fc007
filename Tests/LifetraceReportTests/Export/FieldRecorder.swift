import Foundation
import LifetraceCore
import LifetraceFormat

@testable import LifetraceReport

/// An encoder that writes each call as a line of text holding everything it was called with, every field of its
/// event read from the block the event points into; pausing every `pauseEvery` calls, so that a thread making
/// the calls falls behind the reader.
final class FieldRecorder: ExportEncoder {
    private let pauseEvery: Int?
    private(set) var lines: [String] = []

    init(pauseEvery: Int?) {
        self.pauseEvery = pauseEvery
    }

    func start(origin: Int64) { add("start \(origin)") }

    func declare(_ process: ExportProcess) {
        add("process \(process.uuid) \(process.pid) \(process.name) \(process.labels) \(process.start)")
    }

    func declare(_ track: ExportTrack, name: ExportTrackName) {
        add("track \(track) \(name.text)")
    }

    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) {
        add("slice \(track.uuid) \(name.text)#\(name.key) \(category) \(start)-\(end) \(Self.describe(arguments))")
    }

    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        add("begin \(track.uuid) \(name.text)#\(name.key) \(category) \(t) \(Self.describe(arguments))")
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        add("end \(track.uuid) \(t) \(Self.describe(arguments))")
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        add("instant \(track.uuid) \(name.text)#\(name.key) \(category) \(t) \(Self.describe(arguments))")
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]
    ) {
        let described = notes.map { " \($0.key)=\($0.text)" }.joined()
        add("instant \(track.uuid) \(name.text)#\(name.key) \(category) \(t) \(Self.describe(arguments))\(described)")
    }

    func finish(_ summary: ExportSummary) throws(TraceError) {
        add("finish \(summary.events) \(summary.slices) \(summary.instants)")
    }

    private func add(_ line: String) {
        lines.append(line)
        if let pauseEvery, lines.count % pauseEvery == 0 { Thread.sleep(forTimeInterval: 0.002) }
    }

    /// Everything `arguments` hold, the event's strings and attributes read where it points.
    private static func describe(_ arguments: ExportArguments) -> String {
        var text = "index \(arguments.index.map(String.init) ?? "-") ends \(arguments.endsSlice)"
        if let event = arguments.event {
            text += " event \(event.kind.name) \(event.t) \(event.eventName)"
            event.forEachField { text += " \($0)" }
            event.forEachAttribute { key, value in text += " \(key)=\(value)" }
        }
        arguments.extras.forEach { text += " \($0.key)=\($0.value)" }
        return text
    }
}
