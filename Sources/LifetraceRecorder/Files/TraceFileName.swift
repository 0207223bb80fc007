import LifetraceCore

/// The name of a trace file a recorder created for one launch: `BASE-YYYYMMDDTHHMMSSZ-PID.lifetrace`, the
/// launch's UTC time to the second and the process id, so that names sort by launch and never collide
/// (`BASE-N-…` with a counter if they do: no base has a `-`, ``sanitized(_:)``).
struct TraceFileName: Equatable, Sendable {
    /// The file extension of traces.
    static let pathExtension = "lifetrace"

    /// What the name starts with: the app's bundle identifier, or the given file's name without extension.
    var base: String
    /// The launch time, in Unix nanoseconds (whole seconds).
    var launchUnixNanoseconds: Int64
    /// The process id.
    var pid: Int64
    /// The counter that follows the base when the same process started twice in one second (from 2), if any.
    var counter: Int?

    /// The name for `base`, launched at `launchUnixNanoseconds` (cut to the second) by process `pid`.
    init(base: String, launchUnixNanoseconds: Int64, pid: Int64) {
        self.base = Self.sanitized(base)
        self.launchUnixNanoseconds =
            launchUnixNanoseconds - ((launchUnixNanoseconds % 1_000_000_000) + 1_000_000_000) % 1_000_000_000
        self.pid = pid
    }

    /// `BASE-20261125T142311Z-4242.lifetrace`, or `BASE-2-20261125T142311Z-4242.lifetrace` with a counter.
    var fileName: String {
        let time = CivilTime(unixNanoseconds: launchUnixNanoseconds)
        let pad = CivilTime.padded
        return "\(base)\(counter.map { "-\($0)" } ?? "")-\(pad(time.year, 4))\(pad(time.month, 2))\(pad(time.day, 2))T"
            + "\(pad(time.hour, 2))\(pad(time.minute, 2))\(pad(time.second, 2))Z-\(pid).\(Self.pathExtension)"
    }

    /// Reads a name this type wrote; `nil` for any other.
    init?(fileName: String) {
        let suffix = "." + Self.pathExtension
        guard fileName.hasSuffix(suffix) else { return nil }
        let stem = fileName.dropLast(suffix.count)
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = Int64(parts[parts.count - 1]), pid >= 0 else { return nil }
        let stamp = Array(parts[parts.count - 2].utf8)
        // YYYYMMDDTHHMMSSZ
        guard stamp.count == 16, stamp[8] == UInt8(ascii: "T"), stamp[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in stamp[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = CivilTime.days(year: year, month: month, day: day)
        // A base has no `-`: a number after it is the counter (``counter``).
        if parts.count == 4, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let counter = Int(parts[1]),
            counter >= 2
        {
            base = String(parts[0])
            self.counter = counter
        } else {
            base = parts[0..<(parts.count - 2)].joined(separator: "-")
        }
        launchUnixNanoseconds = ((days * 24 + hour) * 60 + minute) * 60_000_000_000 + second * 1_000_000_000
        self.pid = pid
    }

    /// Whether the file is one of a launch of `base` (as given to ``init(base:launchUnixNanoseconds:pid:)``),
    /// counter or not.
    func isOfBase(_ base: String) -> Bool {
        self.base == Self.sanitized(base)
    }

    /// `text` with every character but letters, digits, `.` and `_` made `_`, so the name is one path
    /// component on every file system; `trace` if nothing is left.
    static func sanitized(_ text: String) -> String {
        let kept = String(
            text.unicodeScalars.map { scalar -> Character in
                let ascii = scalar.isASCII ? UInt8(scalar.value) : 0
                let allowed =
                    (ascii >= UInt8(ascii: "a") && ascii <= UInt8(ascii: "z"))
                    || (ascii >= UInt8(ascii: "A") && ascii <= UInt8(ascii: "Z"))
                    || (ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9"))
                    || ascii == UInt8(ascii: ".") || ascii == UInt8(ascii: "_")
                return allowed ? Character(scalar) : "_"
            })
        return kept.isEmpty || kept.allSatisfy({ $0 == "." }) ? "trace" : String(kept.prefix(100))
    }
}
