import LifetraceCore
import LifetraceImport

extension CaptureImport {
    /// How many lifecycle-looking lines did not parse, and the line naming the first of them; `nil` if all did.
    package var notUnderstood: (count: Int, line: String)? {
        let (count, first) = importer.notUnderstood
        return first.first.map { example in
            let text = example.text.split(separator: "\n").first.map(String.init) ?? ""
            return (
                count, "\(log): \(Plural.count(count, "line")) not understood; first: line \(example.line): \(text)"
            )
        }
    }

    /// The note on what was skipped — lines that are no log entry, text before an entry — if anything was.
    package var skippedNote: String? {
        let skipped = importer.skipped
        guard skipped.lines > 0 || skipped.prefixes > 0 else { return nil }
        var what =
            "\(Plural.count(skipped.lines, "line")) that \(Plural.noun(skipped.lines, "is not a log entry", plural: "are not log entries"))"
        if skipped.prefixes > 0 {
            what += ", and the text before the entry on \(Plural.count(skipped.prefixes, "line"))"
        }
        return "\(log): skipped \(what)"
    }

    /// The warning on lines of the app's earlier processes that came after a later one started, if any: they are
    /// not read, since the trace has gone on to the later process.
    package var lateLinesWarning: String? {
        let (count, first) = importer.lateLines
        guard count > 0, let first else { return nil }
        return
            "\(log): \(Plural.count(count, "line")) of the app's earlier processes came after a later one started, not read; first: line \(first)"
    }

    /// The note on what was written: `OUT: N events from M log entries (FORMAT)`.
    package func writtenNote(output: String, events: Int) -> String {
        "\(output): \(Plural.count(events, "event")) from \(Plural.count(importer.entries, "log entry")) (\(importer.format?.rawValue ?? "unrecognized"))"
    }

    /// What was taken for the year and the zone the capture does not print, if anything, and whether that is only
    /// a note — each taken from `--year` and `--time-zone` (`yearGiven`, `zoneGiven`) — or a warning that one was
    /// guessed.
    package func assumption(yearGiven: Bool, zoneGiven: Bool) -> (text: String, isWarning: Bool)? {
        let assumed = importer.assumed
        var parts: [String] = []
        if let taken = assumed.year {
            parts.append("year \(taken) (\(yearGiven ? "--year" : "the current year; give --year"))")
        }
        if let taken = assumed.zone {
            parts.append("zone \(taken) (\(zoneGiven ? "--time-zone" : "UTC; give --time-zone"))")
        }
        guard !parts.isEmpty else { return nil }
        let missing = [assumed.year != nil ? "no year" : nil, assumed.zone != nil ? "no zone" : nil].compactMap { $0 }
        let text =
            "\(log): the capture prints \(missing.joined(separator: " and ")): took \(parts.joined(separator: " and "))"
        let guessed = (assumed.year != nil && !yearGiven) || (assumed.zone != nil && !zoneGiven)
        return (text, guessed)
    }
}
