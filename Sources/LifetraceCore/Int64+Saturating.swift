extension Int64 {
    /// `self - other`, held at the nearest limit where it is past what 64 bits hold: a difference of two times
    /// of a trace (each 0 to 2^63) that is printed or summed is never a wrapped one.
    package func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
