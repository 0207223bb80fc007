import LifetraceFormat

/// Collects what an encoder writes, on whichever thread it writes; read once the export has returned.
final class CollectingSink: TraceSink {
    var bytes: [UInt8] = []
    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) { self.bytes.append(contentsOf: bytes) }
    func flush() throws(TraceError) {}
}
