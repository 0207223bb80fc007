// Runs of quiet events, read apart from the per-event loop of AnalysisCore.swift: what that loop does to a quiet
// event, with the tests that cannot change within the run made once, at its start.

import LifetraceCore
import LifetraceFormat

extension AnalysisCore {
    /// By tag, whether events of the kind are quiet (``isQuiet(_:triggers:readByModels:)``).
    static func quietKinds(triggers: CodeRuleTriggers, readByModels: [Bool]) -> KindTable<Bool> {
        KindTable(
            EventKind.byTag.map { $0.map { isQuiet($0, triggers: triggers, readByModels: readByModels) } ?? false })
    }

    /// The kinds the per-event loop (``consume(_:)``) tests by name, besides a process's: `app.willTerminate`, the
    /// `didEnterBackground` callbacks (their handler's budget), `handler.return` (its end).
    private static let testedByKind: [EventKind] = [
        .appWillTerminate, .appDidEnterBackground, .sceneDidEnterBackground, .handlerReturn,
    ]

    /// Whether an event of `kind`, read by none of `triggers` and by no model (`readByModels`, by tag), is quiet:
    /// one the per-event loop (``consume(_:)``) only reads as a sign of life and a handler's duration. Not a
    /// process's or a task's event, nor a service's, nor one the loop tests by name (``testedByKind``), nor one a
    /// rule checked in code or the analyzer's own books read.
    static func isQuiet(_ kind: EventKind, triggers: CodeRuleTriggers, readByModels: [Bool]) -> Bool {
        switch kind.layer {
        case .process, .task, .service: return false
        case .app, .scene, .swiftui, .system, .custom: break
        }
        return !testedByKind.contains(kind) && !triggers.read[kind.rawValue] && !readByModels[Int(kind.rawValue)]
    }

    /// Whether the state lets a run of quiet events be read apart: nothing a quiet event could change or be
    /// judged by is pending (the process is running, the app-level phase settled, no `app.willTerminate`
    /// handler's end to judge after, no suspension that work is judged against, no UI change to account).
    /// Every one of these holds through a quiet run, which changes none of them.
    @inline(__always)
    private func canSkimQuietRun() -> Bool {
        guard process.alive, !appPhase.isPending, process.state.willTerminateEnd == nil,
            !(workWhileSuspendedChecked && suspension.suspendedSince != nil)
        else { return false }
        return !uiLeftItsBooks(engine.uiState)
    }

    /// Reads the quiet events of `block` from `row` on (the first is quiet, and ``skimsQuietRuns`` is set), as
    /// ``consume(_:)`` would read each, and returns the row of the first event it leaves to that loop: one that is
    /// not quiet, carries attributes, or ends a silence long enough to infer a suspension; `row` itself when the
    /// state does not let a run be read apart.
    @inline(never)
    mutating func skimQuietRun(_ block: borrowing EventBlock, from row: Int) -> Int {
        guard canSkimQuietRun() else { return row }
        let notesSignsOfLife = !groundTruth && suspension.suspendedSince == nil && !tasks.hasOpenTasks
        let idleInBackground = Self.isBackground(engine.uiState)
        let start = row
        var row = row
        let count = block.count
        while row < count {
            let event = block.records[row]
            guard quietKinds[event.tag], !event.fields.contains(.attrs), suspension.readQuietly(at: event.t) else {
                break
            }
            process.state.lastT = event.t
            if notesSignsOfLife {
                suspension.noteSignOfLife(until: event.t &+ event.dur, idleInBackground: idleInBackground)
            }
            noteIfSlowest(event, row: row, of: block, isHandler: true)
            index += 1
            row += 1
        }
        if row > start { quietRunsRead += 1 }
        return row
    }
}
