/// Reading how long ago the process started, from what the system reports: the parts that are plain
/// arithmetic and parsing, so that they are tested on every platform.
enum ProcessAge {
    /// The most a process's age is taken to be: older than this (a clock set back, a wrong reading), it is
    /// not used and the trace starts when the recorder does.
    static let maximum: Int64 = 400 * 86_400 * 1_000_000_000

    /// `age` if it is plausible: not negative and under ``maximum``.
    static func clamped(_ age: Int64) -> Int64? {
        age >= 0 && age < maximum ? age : nil
    }

    /// Field 22 of `/proc/self/stat` (`starttime`, clock ticks after boot). The second field, the command in
    /// parentheses, may itself hold spaces and parentheses, so fields are counted after its last `)`.
    static func startTicks(procSelfStat bytes: [UInt8]) -> Int64? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After ")" come fields 3, 4, ...: field 22 is the 20th of them.
        var field = 2
        var value: Int64 = 0
        var inField = false
        for byte in bytes[(close + 1)...] {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                if inField, field == 22 { return value }
                inField = false
                continue
            }
            if !inField {
                inField = true
                field += 1
                value = 0
            }
            if field == 22 {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = times + Int64(byte - UInt8(ascii: "0"))
            }
        }
        return inField && field == 22 ? value : nil
    }
}
