/// The lines of Xcode's debug console (and of `NSLog` on a terminal, as `ios-deploy` and older Xcode versions
/// print them): the date and time with a fraction, the zone (since Xcode 8), then `Process[pid:thread]`:
///
/// ```text
/// 2020-10-11 08:54:01.927263+0700 TestBgTask[381:16973] Simulating launch for task with identifier com.example.bgRefresh
/// 2015-12-01 17:20:47.452 ThaliTest[2200:2075973] Apache Cordova native platform version 3.9.2 is starting.
/// ```
///
/// The app's `print` output, crash banners and the debugger's lines have no such prefix: they continue the
/// entry before them.
enum XcodeConsoleLine {
    /// How the debugger's own lines about the process it runs start (`Message from debugger: Terminated due to
    /// signal 9`): they have no time, and continue the run's last entry wherever the paste put them.
    static let debuggerMessage = "Message from debugger: "

    /// `Process[pid:thread] message` after the time: the process (which may hold spaces), the pid and the
    /// message; `nil` if `rest` does not start with that column.
    static func processColumn(_ rest: Substring) -> (process: Substring, pid: Int64, message: Substring)? {
        let utf8 = rest.utf8
        guard let first = utf8.first, first != UInt8(ascii: " "),
            let open = UTF8Search.firstIndex(of: UInt8(ascii: "["), in: rest, from: rest.startIndex)
        else { return nil }
        var cursor = utf8.index(after: open)
        var pid: Int64 = 0
        var digits = 0
        while cursor < utf8.endIndex, let digit = Self.digit(utf8[cursor]) {
            pid = pid &* 10 &+ digit
            digits += 1
            cursor = utf8.index(after: cursor)
        }
        guard digits > 0, digits <= 10, cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: ":") else { return nil }
        cursor = utf8.index(after: cursor)
        let threadStart = cursor
        while cursor < utf8.endIndex, Self.isAlphanumeric(utf8[cursor]) { cursor = utf8.index(after: cursor) }
        guard cursor > threadStart, cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: "]") else { return nil }
        cursor = utf8.index(after: cursor)
        if cursor == utf8.endIndex { return (rest[..<open], pid, rest[cursor...]) }
        guard utf8[cursor] == UInt8(ascii: " ") else { return nil }
        return (rest[..<open], pid, rest[utf8.index(after: cursor)...])
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int64? {
        byte >= 0x30 && byte <= 0x39 ? Int64(byte - 0x30) : nil
    }

    @inline(__always)
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }
}
