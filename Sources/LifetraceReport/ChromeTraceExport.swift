public import LifetraceAnalysis
public import LifetraceCore
import LifetraceFormat

/// The Chrome Trace Event Format, which Perfetto UI and chrome://tracing open: a thread per lane, states and
/// tasks as complete events (`ph: X`), callbacks with durations as complete events, markers and findings as
/// instants (`ph: i`), names as metadata (`ph: M`). Timestamps are microseconds from the trace's start.
public enum ChromeTraceExport {
    /// The JSON document.
    public static func export(_ result: AnalysisResult) -> JSONValue {
        let timeline = result.timeline ?? Timeline()
        let origin = timeline.start
        func us(_ ns: Int64) -> JSONValue { .double(Double(ns - origin) / 1000) }
        func length(_ ns: Int64) -> JSONValue { .double(Double(max(ns, 0)) / 1000) }
        var events: [JSONValue] = [
            .object([("name", .string("process_name")), ("ph", .string("M")), ("pid", .int(1)), ("tid", .int(0)),
                     ("args", .object([("name", .string(result.header?.app ?? result.file))]))]),
        ]
        for (number, lane) in timeline.lanes.enumerated() {
            let tid = Int64(number + 1)
            events.append(.object([("name", .string("thread_name")), ("ph", .string("M")), ("pid", .int(1)), ("tid", .int(tid)),
                                   ("args", .object([("name", .string(lane.name))]))]))
            events.append(.object([("name", .string("thread_sort_index")), ("ph", .string("M")), ("pid", .int(1)),
                                   ("tid", .int(tid)), ("args", .object([("sort_index", .int(tid))]))]))
            for segment in lane.segments {
                events.append(.object([
                    ("name", .string(segment.state + (segment.inferred ? " (inferred)" : ""))), ("cat", .string("state")),
                    ("ph", .string("X")), ("pid", .int(1)), ("tid", .int(tid)), ("ts", us(segment.start)),
                    ("dur", length(segment.end - segment.start)),
                ]))
            }
            for mark in lane.marks {
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(mark.name)), ("cat", .string("callback")), ("pid", .int(1)), ("tid", .int(tid)),
                    ("ts", us(mark.t)),
                ]
                if let dur = mark.dur {
                    members.append(("ph", .string("X")))
                    members.append(("dur", length(dur)))
                } else {
                    members.append(("ph", .string("i")))
                    members.append(("s", .string("t")))
                }
                members.append(("args", .object([("event_index", .int(Int64(mark.index)))])))
                events.append(.object(members))
            }
        }
        let taskTID = Int64(timeline.lanes.count + 1)
        if !timeline.tasks.isEmpty {
            events.append(.object([("name", .string("thread_name")), ("ph", .string("M")), ("pid", .int(1)),
                                   ("tid", .int(taskTID)), ("args", .object([("name", .string("background tasks"))]))]))
        }
        for task in timeline.tasks {
            let end = task.end ?? timeline.end
            events.append(.object([
                ("name", .string(task.name ?? "task \(task.id)")), ("cat", .string("task")), ("ph", .string("X")),
                ("pid", .int(1)), ("tid", .int(taskTID)), ("ts", us(task.start)), ("dur", length(end - task.start)),
                ("args", .object([("task", .int(task.id)), ("ended", .bool(task.ended)), ("expired", .bool(task.expired))])),
            ]))
        }
        for finding in result.findings {
            let lane = timeline.lanes.firstIndex { finding.scene.map { "scene " + $0 } == $0.name }.map { Int64($0 + 1) } ?? 1
            events.append(.object([
                ("name", .string("\(finding.rule.id) \(finding.rule.title)")), ("cat", .string("finding")),
                ("ph", .string("i")), ("s", .string("t")), ("pid", .int(1)), ("tid", .int(lane)), ("ts", us(finding.t)),
                ("args", .object([("severity", .string(finding.severity.rawValue)), ("message", .string(finding.message)),
                                  ("event_index", .int(Int64(finding.eventIndex)))])),
            ]))
        }
        return .object([("traceEvents", .array(events)), ("displayTimeUnit", .string("ms"))])
    }
}
