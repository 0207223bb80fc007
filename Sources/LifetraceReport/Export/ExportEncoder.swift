import LifetraceFormat

/// Writes what a ``TraceExporter`` decides in one file format, as it decides it.
///
/// Calls come in the trace's order, with two exceptions an encoder must allow: a slice is written whole when it
/// begins if its end is known then (``slice(on:name:category:from:to:_:)``, its end in the future of later
/// calls), and state stretches arrive when they close. Viewers sort by time; nothing here needs to.
protocol ExportEncoder: AnyObject {
    /// The time of the trace's first event, before anything else.
    func start(origin: Int64)
    /// A process, before anything on its tracks.
    func declare(_ process: ExportProcess)
    /// A track, before anything on it, and the name viewers show for it.
    func declare(_ track: ExportTrack, name: ExportTrackName)
    /// A slice whose end is known.
    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments)
    /// The beginning of a slice whose end comes with ``end(on:at:_:)`` on the same track.
    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments)
    /// The end of the slice begun last on `track`; `arguments` (``ExportArguments/endsSlice``) join the beginning's.
    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments)
    /// A moment.
    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments)
    /// A moment with values of text after its arguments' (a finding's rule and message, a warning): rare, so kept
    /// apart from the calls nearly every event makes, whose arguments are plain data.
    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote])
    /// Ends the file, with what it holds.
    func finish(_ summary: ExportSummary) throws(TraceError)
    /// The block the events of the calls that follow point into, until the next: an encoder that makes its calls
    /// later (``EncodingThread``) keeps it until then.
    func keep(_ block: PinnedBlock)
}

extension ExportEncoder {
    /// An encoder that writes as it is called reads each event during its call: it keeps no block.
    func keep(_ block: PinnedBlock) {}
}

/// What an export holds, counted as it was written.
public struct ExportSummary: Sendable, Hashable {
    /// The trace exported.
    public var file: String
    /// Its events, every one of which the export shows.
    public var events = 0
    /// Its processes, a process track each.
    public var processes = 0
    /// Tracks, process tracks not included.
    public var tracks = 0
    /// Slices (callbacks, states, tasks).
    public var slices = 0
    /// Instants (markers, process and system events, findings).
    public var instants = 0
    /// Findings shown.
    public var findings = 0
    /// Slices drawn as instants because more than a track's lanes overlapped (`SliceLanes.maximumLanes`).
    public var unplacedSlices = 0
    /// The time of the trace's first event (ns): Chrome JSON's times count from it.
    public var origin: Int64 = 0
    /// What the export could not keep of the trace, for a warning: Chrome JSON's times past 26 days from the
    /// first event are whole microseconds. `nil` when it kept everything.
    public var precisionNote: String?
}
