/// The earliest and latest times of a capture's entries so far, which a trace's 64-bit nanoseconds must hold
/// apart: the trace counts each event's time from the first entry's, so no two entries may be more than 2^63 ns
/// (292 years) apart, though each date alone lies between 1678 and 2262.
struct CaptureSpan: Sendable {
    private var earliest: (ns: Int64, line: Int)?
    private var latest: (ns: Int64, line: Int)?

    /// Takes the entry at `ns` on `line` into the span; `nil` if it fits, else the line of the entry it is too
    /// far from (the span is left as it was).
    mutating func admit(_ ns: Int64, line: Int) -> Int? {
        guard let earliest, let latest else {
            (self.earliest, self.latest) = ((ns, line), (ns, line))
            return nil
        }
        if ns.subtractingReportingOverflow(earliest.ns).overflow { return earliest.line }
        if latest.ns.subtractingReportingOverflow(ns).overflow { return latest.line }
        if ns < earliest.ns { self.earliest = (ns, line) }
        if ns > latest.ns { self.latest = (ns, line) }
        return nil
    }
}
