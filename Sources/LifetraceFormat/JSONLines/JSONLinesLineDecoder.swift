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
        if lineNumber == 1, let header = try headerIfAny(line) { return .header(header) }
        let event: LifecycleEvent
        do throws(DecodeFailure) {
            event = try JSONLinesEventParser.parse(line)
        } catch {
            let column = error.offset > 0 ? " (column \(error.offset + 1))" : ""
            throw TraceError(.malformed, file: file, at: .line(lineNumber), error.message + column)
        }
        guard event.t >= lastT || !requiresTimeOrder else {
            throw TraceError(.malformed, file: file, at: .line(lineNumber),
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
        guard let value = try? scanner.parseDocument(), value["lifetrace"] != nil else { return nil }
        let header: TraceHeader
        do throws(DecodeFailure) {
            header = try TraceHeader(json: value)
        } catch {
            throw TraceError(.malformed, file: file, at: .line(1), "header: \(error.message)")
        }
        guard header.majorVersion <= Int64(FormatConstants.majorVersion) else {
            throw TraceError(.unsupportedVersion, file: file, at: .line(1),
                             "written in format version \(header.majorVersion); this lifetrace reads version "
                                 + "\(FormatConstants.majorVersion): upgrade lifetrace")
        }
        return header
    }
}
