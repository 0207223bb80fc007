/// One call of an ``ExportEncoder``, kept to be made later on another thread (``EncodingThread``): plain numbers
/// and pointers only, so that keeping and reading one copies bytes and counts no reference. What does not fit a
/// number (a name's text the first time, a track's name, extra values) is in its batch's side tables, by position.
struct ExportCall {
    /// Which call.
    enum Kind: UInt8 {
        case start, declareProcess, declareTrack, slice, begin, end, instant
    }

    var kind: Kind
    var category: ExportCategory = .callback
    /// The arguments' ``ExportArguments/endsSlice``.
    var endsSlice = false
    var track = ExportTrack(uuid: 0, processUUID: 0, pid: 0, tid: 0)
    /// The name: its ``ExportName/key`` once the batches have carried its text, or `-1 - n` for the `n`-th name of
    /// the batch's own.
    var name: Int32 = 0
    /// The process or track name declared (their position in the batch), or the arguments' extra values (-1: none).
    var side: Int32 = -1
    /// The time, or the start of a slice; the origin of ``Kind/start``.
    var t: Int64 = 0
    /// The end of a slice.
    var end: Int64 = 0
    /// The arguments' event index (-1: none).
    var index = -1
    /// The arguments' event, pointing into a block the batch holds.
    var event: ExportEventFields?

    init(_ kind: Kind) {
        self.kind = kind
    }
}
