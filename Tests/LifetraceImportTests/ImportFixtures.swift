import Foundation
import LifetraceCore
import LifetraceImport
import LifetraceTestSupport

/// Runs the importer over a fixture capture, as `lifetrace import` runs it over a file.
enum ImportFixtures {
    static func path(_ name: String) -> String {
        PackagePaths.path("Tests/LifetraceImportTests/Fixtures/\(name)")
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    static func importText(
        _ text: String, _ selection: AppSelection,
        _ assumptions: TimeAssumptions = TimeAssumptions(year: 2026)
    )
        -> (importer: LogImporter, events: [LifecycleEvent])
    {
        var importer = LogImporter(selection: selection, assumptions: assumptions)
        var events: [LifecycleEvent] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            importer.feed(line, number: index + 1) { events.append($0) }
        }
        importer.finish { events.append($0) }
        return (importer, events)
    }

    static func importFixture(
        _ name: String, _ selection: AppSelection,
        _ assumptions: TimeAssumptions = TimeAssumptions(year: 2026)
    )
        throws -> (importer: LogImporter, events: [LifecycleEvent])
    {
        importText(try text(name), selection, assumptions)
    }
}

/// An event reduced to what a derivation decides: its name, time, and the fields it sets.
struct Derived: Equatable, CustomStringConvertible {
    var name: String
    var t: Int64
    var line: Int64?
    var task: Int64? = nil
    var taskName: String? = nil
    var reason: String? = nil

    init(_ name: String, t: Int64, line: Int64?, task: Int64? = nil, taskName: String? = nil, reason: String? = nil) {
        self.name = name
        self.t = t
        self.line = line
        self.task = task
        self.taskName = taskName
        self.reason = reason
    }

    init(_ event: LifecycleEvent) {
        let line = event.attrs?.first { $0.key == "log_line" }.flatMap { attribute -> Int64? in
            if case .int(let value) = attribute.value { return value }
            return nil
        }
        self.init(event.eventName, t: event.t, line: line, task: event.task, taskName: event.name, reason: event.reason)
    }

    var description: String {
        "\(name)@\(t) line \(line.map(String.init) ?? "-")\(task.map { " task \($0)" } ?? "")\(taskName.map { " \($0)" } ?? "")"
    }
}

extension LifecycleEvent {
    func attribute(_ key: String) -> AttributeValue? {
        attrs?.first { $0.key == key }?.value
    }
}
