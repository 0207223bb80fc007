/// One call of an ``ExportEncoder``, kept to be made later on another thread (``EncodingThread``): plain data only
/// (`BitwiseCopyable`, checked by the compiler), so that keeping and reading one copies bytes and counts no
/// reference. What does not fit a number (a name's text the first time, a process, a track's name, extra values, notes)
/// is in its batch's side tables, by position.
struct ExportCall: BitwiseCopyable {
    /// Which call.
    enum Kind: UInt8 {
        case start, declareProcess, declareTrack, slice, begin, end, instant
    }

    /// Which call this is.
    var kind: Kind
    /// The category of a slice or instant.
    var category: ExportCategory = .callback
    /// The arguments' ``ExportArguments/endsSlice``.
    var endsSlice = false
    /// The track of a slice, instant or track's declaration.
    var track = ExportTrack(uuid: 0, processUUID: 0, pid: 0, tid: 0)
    /// The name: its ``ExportName/key`` once the batches have carried its text, or `-1 - n` for the `n`-th name of
    /// the batch's own.
    var name: Int32 = 0
    /// A place in the batch's side tables, by kind: the process declared (``Kind/declareProcess``), the track's name
    /// (``Kind/declareTrack``), or the arguments' extra values (the others; -1: none).
    var side: Int32 = -1
    /// An instant's notes' place in the batch's side table (-1: none).
    var notes: Int32 = -1
    /// The time, or the start of a slice; the origin of ``Kind/start``.
    var t: Int64 = 0
    /// The end of a slice.
    var end: Int64 = 0
    /// The arguments' event index, if they have one.
    var index: Int?
    /// The arguments' event, pointing into a block the batch holds.
    var event: ExportEventFields?

    /// A call of `kind`, its other parts to be set.
    init(_ kind: Kind) {
        self.kind = kind
    }
}
