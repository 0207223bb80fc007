public import LifetraceCore

/// Decodes a JSON Lines trace line by line, for streams that arrive a line at a time.
///
/// The first line is the header if it is an object with a `lifetrace` member; every other non-blank line
/// must be an event whose `t` is not before the previous event's (unless ``requiresTimeOrder`` is off).
public struct JSONLinesLineDecoder: Sendable {
    /// What one line held.
    public enum Line: Sendable {
        /// The header (only ever the first line).
        case header(TraceHeader)
        /// An event.
        case event(LifecycleEvent)
        /// A blank line, which carries nothing.
        case blank
    }

    /// The file the lines come from, for errors.
    public let file: String
    /// The number of the last line decoded.
    public private(set) var lineNumber = 0
    /// The `t` of the last event decoded.
    public private(set) var lastT: Int64 = 0
    /// Whether an event whose `t` is before the previous event's is an error (the default). `lifetrace record`
    /// turns it off: lines from several producers into one pipe interleave, and the recorder raises such a
    /// time to the last one (`Recorder.record(_:)`).
    public var requiresTimeOrder = true
    /// Whether the header may come after blank lines: `lifetrace record` passes through what a test runner
    /// prints before the app's first line, and counts those lines as blank ones. Off for a file, whose header
    /// is its first line.
    public var headerMayFollowBlankLines = false
    /// Whether a line that is not blank has been decoded.
    private var decodedAny = false

    /// Creates a decoder for the lines of `file`.
    public init(file: String) {
        self.file = file
    }

    /// Decodes the next line (without its newline).
    ///
    /// - Throws: ``TraceError`` naming the file and the line.
    public mutating func decode(_ line: UnsafeBufferPointer<UInt8>) throws(TraceError) -> Line {
        lineNumber += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        let mayBeHeader = lineNumber == 1 || (headerMayFollowBlankLines && !decodedAny)
        decodedAny = true
        if mayBeHeader, let header = try headerIfAny(line) { return .header(header) }
        let event: LifecycleEvent
        do throws(DecodeFailure) {
            event = try JSONLinesEventParser.parse(line)
        } catch {
            let column = error.offset > 0 ? " (column \(error.offset + 1))" : ""
            throw TraceError(.malformed, file: file, at: .line(lineNumber), error.message + column)
        }
        guard event.t >= lastT || !requiresTimeOrder else {
            throw TraceError(
                .malformed, file: file, at: .line(lineNumber),
                "t=\(event.t) is before the previous event's t=\(lastT)")
        }
        lastT = max(lastT, event.t)
        return .event(event)
    }

    /// Decodes a line given as a string.
    public mutating func decode(_ line: String) throws(TraceError) -> Line {
        var line = line
        let result: Result<Line, TraceError> = line.withUTF8 { bytes in
            do throws(TraceError) { return .success(try decode(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func headerIfAny(_ line: UnsafeBufferPointer<UInt8>) throws(TraceError) -> TraceHeader? {
        var scanner = JSONScanner(line)
        let value: JSONValue
        do throws(DecodeFailure) {
            value = try scanner.parseDocument()
        } catch {
            // A line that begins as a header (`{"lifetrace"`) but is no JSON: what is wrong with it, not that an
            // event has no member `lifetrace`.
            guard Self.beginsAsHeader(line) else { return nil }
            let column = error.offset > 0 ? " (column \(error.offset + 1))" : ""
            throw TraceError(.malformed, file: file, at: .line(lineNumber), "header: " + error.message + column)
        }
        guard value["lifetrace"] != nil else { return nil }
        let header: TraceHeader
        do throws(DecodeFailure) {
            header = try TraceHeader(json: value)
        } catch {
            throw TraceError(.malformed, file: file, at: .line(lineNumber), "header: \(error.message)")
        }
        guard header.majorVersion <= Int64(FormatConstants.majorVersion) else {
            throw TraceError(
                .unsupportedVersion, file: file, at: .line(lineNumber),
                "written in format version \(header.majorVersion); this lifetrace reads version "
                    + "\(FormatConstants.majorVersion): upgrade lifetrace")
        }
        return header
    }

    /// Whether `line` begins `{"lifetrace"` (spaces allowed around the brace).
    private static func beginsAsHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = Array(#""lifetrace""#.utf8)
        var rest = line.drop { $0 == 0x20 || $0 == 0x09 }
        guard rest.first == UInt8(ascii: "{") else { return false }
        rest = rest.dropFirst().drop { $0 == 0x20 || $0 == 0x09 }
        return rest.starts(with: key)
    }
}
