public import LifetraceCore
public import LifetraceFormat

extension SummaryRow {
    /// The row as the JSON object `summarize` writes: the columns in the schema's order.
    public var json: JSONValue {
        // Cannot fail: every column is a string, an integer, a boolean or null (JSONValueEncoder takes them all).
        try! JSONValueEncoder.encode(self)
    }

    /// Appends the row to `bytes` as one line of JSON Lines.
    public func appendLine(to bytes: inout [UInt8]) {
        bytes.appendJSONValue(json)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The row `json` holds.
    ///
    /// - Throws: why `json` is not a summary row of this version, in one line: not an object, no or another
    ///   `summary_version`, no `row` or `trace` string, a column of the wrong type (named), or a negative
    ///   duration or count (named).
    public init(json: JSONValue) throws(SummaryRowError) {
        guard case .object = json else { throw SummaryRowError("not a summary row: \(json.kindName), not an object") }
        guard let version = json[CodingKeys.summaryVersion.stringValue] else {
            throw SummaryRowError("not a summary row: no \(CodingKeys.summaryVersion.stringValue)")
        }
        guard version == .int(Int64(Self.schemaVersion)) else {
            throw SummaryRowError(
                "\(CodingKeys.summaryVersion.stringValue) \(version.jsonText) is not \(Self.schemaVersion), the version this lifetrace reads"
            )
        }
        for key in [CodingKeys.row, .trace] where json[key.stringValue]?.stringValue == nil {
            throw SummaryRowError("not a summary row: no \"\(key.stringValue)\" string")
        }
        do {
            self = try JSONValueDecoder.decode(SummaryRow.self, from: json)
        } catch let DecodingError.typeMismatch(_, context) {
            throw SummaryRowError("not a summary row: \(context.debugDescription)")
        } catch {
            throw SummaryRowError("not a summary row: \(error)")
        }
        // A number no measurement gives is no row to compare: the gate fails closed on it.
        if let impossible = impossibleValueMessage { throw SummaryRowError("an impossible summary row: \(impossible)") }
    }

    /// Reads line `number` of the summary file `file` (`summarize`'s output); `nil` for an empty line.
    ///
    /// - Throws: a ``TraceError`` naming the file and the line for anything but a summary row — a byte-order
    ///   mark, JSON that does not parse, or a row ``init(json:)`` refuses — so that a file that is not a summary
    ///   is never compared as an empty one.
    public init?(line: UnsafeBufferPointer<UInt8>, number: Int, file: String) throws(TraceError) {
        guard !line.isEmpty else { return nil }
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw TraceError(
                .malformed, file: file, at: .line(number),
                "starts with a byte-order mark (U+FEFF), which JSON Lines does not have: save it without one")
        }
        let json: JSONValue
        do throws(TraceError) {
            json = try JSONValue(parsing: String(decoding: line, as: UTF8.self), file: file)
        } catch {
            throw TraceError(.malformed, file: file, at: .line(number), error.message)
        }
        do throws(SummaryRowError) {
            try self.init(json: json)
        } catch {
            throw TraceError(.malformed, file: file, at: .line(number), error.message)
        }
    }
}

/// Why a JSON value is not a summary row, in one line.
public struct SummaryRowError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public var message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
