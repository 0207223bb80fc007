// Each kind's columns written and read in the schema's order, through SummaryRow.CodingKeys alone.

typealias RowEncoding = KeyedEncodingContainer<SummaryRow.CodingKeys>
typealias RowDecoding = KeyedDecodingContainer<SummaryRow.CodingKeys>

extension SummaryRow: Codable {
    /// Writes the common columns, then those of the row's kind; a `nil` column is written `null`.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(Self.schemaVersion, forKey: .summaryVersion)
        try row.encode(kind, forKey: .row)
        try row.encode(trace, forKey: .trace)
        try run.encode(to: &row)
        switch columns {
        case let .trace(columns): try columns.encode(to: &row)
        case let .process(columns): try columns.encode(to: &row)
        case let .handler(columns): try columns.encode(to: &row)
        case let .task(columns): try columns.encode(to: &row)
        case let .service(columns): try columns.encode(to: &row)
        case let .finding(columns): try columns.encode(to: &row)
        case let .error(columns): try columns.encode(to: &row)
        case .other: break
        }
    }

    /// Reads a row of this schema version: its `summary_version`, `row` and `trace` must be there; the other
    /// columns may not be, and columns this version does not know are ignored.
    ///
    /// - Throws: a `DecodingError` naming the column, for another version or a column of the wrong type.
    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        let version = try row.decode(Int64.self, forKey: .summaryVersion)
        guard version == Int64(Self.schemaVersion) else {
            throw DecodingError.dataCorruptedError(
                forKey: .summaryVersion, in: row,
                debugDescription:
                    "summary_version \(version) is not \(Self.schemaVersion), the version this lifetrace reads")
        }
        let kind = try row.decode(String.self, forKey: .row)
        trace = try row.decode(String.self, forKey: .trace)
        run = try Run(from: row)
        columns =
            switch kind {
            case "trace": .trace(try TraceColumns(from: row))
            case "process": .process(try ProcessColumns(from: row))
            case "handler": .handler(try HandlerColumns(from: row))
            case "task": .task(try TaskColumns(from: row))
            case "service": .service(try ServiceColumns(from: row))
            case "finding": .finding(try FindingColumns(from: row))
            case "error": .error(try ErrorColumns(from: row))
            default: .other(kind: kind)
            }
    }
}

// A column is a string, an integer or a boolean: one overload each, so that each goes to the coder's typed
// method rather than through a generic one.
extension KeyedEncodingContainer where Key == SummaryRow.CodingKeys {
    /// Writes `value`, or `null` when there is none.
    mutating func column(_ value: String?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Writes `value`, or `null` when there is none.
    mutating func column(_ value: Int64?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Writes `value`, or `null` when there is none.
    mutating func column(_ value: Bool?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

extension KeyedDecodingContainer where Key == SummaryRow.CodingKeys {
    /// The column's value; `nil` when the row lacks it or it is `null`.
    func column(_ key: Key) throws -> String? { try decodeIfPresent(String.self, forKey: key) }

    /// The column's value; `nil` when the row lacks it or it is `null`.
    func column(_ key: Key) throws -> Int64? { try decodeIfPresent(Int64.self, forKey: key) }

    /// The column's value; `nil` when the row lacks it or it is `null`.
    func column(_ key: Key) throws -> Bool? { try decodeIfPresent(Bool.self, forKey: key) }
}

extension SummaryRow.Run {
    func encode(to row: inout RowEncoding) throws {
        try row.column(app, .app)
        try row.column(appVersion, .appVersion)
        try row.column(build, .build)
        try row.column(osVersion, .osVersion)
        try row.column(device, .device)
        try row.column(testName, .testName)
        try row.column(source, .source)
    }

    init(from row: RowDecoding) throws {
        self.init(
            app: try row.column(.app), appVersion: try row.column(.appVersion), build: try row.column(.build),
            osVersion: try row.column(.osVersion), device: try row.column(.device), testName: try row.column(.testName),
            source: try row.column(.source))
    }
}

extension StateColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(active, .activeNs)
        try row.column(inactive, .inactiveNs)
        try row.column(background, .backgroundNs)
        try row.column(suspended, .suspendedNs)
    }

    init(from row: RowDecoding) throws {
        self.init(
            active: try row.column(.activeNs), inactive: try row.column(.inactiveNs),
            background: try row.column(.backgroundNs), suspended: try row.column(.suspendedNs))
    }
}

extension TraceColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(events, .events)
        try row.column(span, .spanNs)
        try row.column(processes, .processes)
        try row.column(errors, .errors)
        try row.column(warnings, .warnings)
        try row.column(findingsOmitted, .findingsOmitted)
        try times.encode(to: &row)
        try row.column(suspensions, .suspensions)
        try row.column(truncated, .truncated)
        try row.column(inputWarnings, .inputWarnings)
    }

    init(from row: RowDecoding) throws {
        (events, span, processes) = (try row.column(.events), try row.column(.spanNs), try row.column(.processes))
        (errors, warnings, findingsOmitted) = (
            try row.column(.errors), try row.column(.warnings), try row.column(.findingsOmitted)
        )
        times = try StateColumns(from: row)
        (suspensions, truncated, inputWarnings) = (
            try row.column(.suspensions), try row.column(.truncated), try row.column(.inputWarnings)
        )
    }
}

extension ProcessColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(process, .process)
        try row.column(launchReason, .launchReason)
        try row.column(launchT, .launchTNs)
        try row.column(launch, .launchNs)
        try row.column(end, .end)
        try times.encode(to: &row)
    }

    init(from row: RowDecoding) throws {
        (process, launchReason) = (try row.column(.process), try row.column(.launchReason))
        (launchT, launch, end) = (try row.column(.launchTNs), try row.column(.launchNs), try row.column(.end))
        times = try StateColumns(from: row)
    }
}

extension HandlerColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(handler, .handler)
        try row.column(count, .count)
        try row.column(total, .totalNs)
        try row.column(longest, .maxNs)
        try row.column(mean, .meanNs)
    }

    init(from row: RowDecoding) throws {
        (handler, count, total) = (try row.column(.handler), try row.column(.count), try row.column(.totalNs))
        (longest, mean) = (try row.column(.maxNs), try row.column(.meanNs))
    }
}

extension TaskColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(kind, .taskKind)
        try row.column(id, .taskId)
        try row.column(name, .taskName)
        try row.column(begin, .beginTNs)
        try row.column(end, .endTNs)
        try row.column(duration, .durationNs)
        try row.column(expired, .expired)
        try row.column(ended, .ended)
    }

    init(from row: RowDecoding) throws {
        (kind, id, name) = (try row.column(.taskKind), try row.column(.taskId), try row.column(.taskName))
        (begin, end, duration) = (try row.column(.beginTNs), try row.column(.endTNs), try row.column(.durationNs))
        (expired, ended) = (try row.column(.expired), try row.column(.ended))
    }
}

extension ServiceColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(process, .process)
        try row.column(service, .service)
        try row.column(start, .startTNs)
        try row.column(ready, .readyNs)
        try row.column(running, .runningNs)
        try row.column(shutdownT, .shutdownTNs)
        try row.column(shutdown, .shutdownNs)
        try row.column(stopped, .stopped)
        try row.column(error, .error)
        try row.column(cancelled, .cancelled)
    }

    init(from row: RowDecoding) throws {
        (process, service) = (try row.column(.process), try row.column(.service))
        (start, ready, running) = (try row.column(.startTNs), try row.column(.readyNs), try row.column(.runningNs))
        (shutdownT, shutdown) = (try row.column(.shutdownTNs), try row.column(.shutdownNs))
        (stopped, error, cancelled) = (try row.column(.stopped), try row.column(.error), try row.column(.cancelled))
    }
}

extension FindingColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(rule, .rule)
        try row.column(severity, .severity)
        try row.column(message, .message)
        try row.column(eventIndex, .eventIndex)
        try row.column(t, .tNs)
        try row.column(scene, .scene)
        try row.column(measured, .measuredNs)
        try row.column(budget, .budgetNs)
    }

    init(from row: RowDecoding) throws {
        (rule, severity, message) = (try row.column(.rule), try row.column(.severity), try row.column(.message))
        (eventIndex, t, scene) = (try row.column(.eventIndex), try row.column(.tNs), try row.column(.scene))
        (measured, budget) = (try row.column(.measuredNs), try row.column(.budgetNs))
    }
}

extension ErrorColumns {
    func encode(to row: inout RowEncoding) throws {
        try row.column(error, .error)
        try row.column(kind, .errorKind)
    }

    init(from row: RowDecoding) throws {
        self.init(error: try row.column(.error), kind: try row.column(.errorKind))
    }
}
