import FuzzSupport
import LifetraceCore
import LifetraceImport

/// The importer's time arithmetic: captures made from the fuzzer's bytes in every layout (dated `log` styles,
/// Xcode, ndjson, Console copies with and without dates, idevicesyslog without years), with dates near and past
/// 1678 and 2262, zones up to ±14 h, `--year` and `--time-zone` taken or not, months that cross New Year and times
/// of day that pass midnight. Either the importer stops at an entry whose time no trace holds (or whose day the
/// year lacks), naming a line it was fed, or every derived event is valid, in time order, and at a time its
/// header's start plus it still holds. Never an overflow trap. `import --live` feeds the same importer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportDates(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var input = DateBytes(UnsafeRawBufferPointer(start: data, count: size))
    let layout = Int(input.next() % 7)
    let year = input.next() < 128 ? nil : 1971 + Int(input.next16() % 291)
    let zones = ["+1400", "-1200", "+0000", "+0530", "-0959"]
    let zone = input.next() < 128 ? nil : zones[Int(input.next()) % zones.count]
    var importer = LogImporter(
        selection: AppSelection(process: "App", bundleID: nil, pid: nil),
        assumptions: TimeAssumptions(year: year, zone: zone, defaultYear: 2026))
    var last: Int64 = 0
    func check(_ event: LifecycleEvent) {
        precondition(event.problem == nil, "derived an invalid event: \(event)")
        precondition(event.t >= last, "derived events go back in time")
        last = event.t
    }
    var number = 0
    while !input.isEmpty, number < 4096 {
        number += 1
        importer.feed(input.line(layout)[...], number: number, check)
        if let stop = importer.outOfRange?.line ?? importer.impossibleDate?.line {
            precondition(stop >= 1 && stop <= number, "a refusal naming line \(stop) of \(number)")
            return 0
        }
    }
    importer.finish(check)
    if let start = importer.header(app: "App").startUnixNanoseconds {
        precondition(!start.addingReportingOverflow(last).overflow, "an event at a time past what 64 bits hold")
    }
    return 0
}

/// The fuzzer's bytes, read from the front as the fields of capture lines; zeros once they run out.
private struct DateBytes {
    private var rest: ArraySlice<UInt8>
    init(_ buffer: UnsafeRawBufferPointer) { rest = Array(buffer)[...] }
    var isEmpty: Bool { rest.isEmpty }
    mutating func next() -> UInt8 { rest.popFirst() ?? 0 }
    mutating func next16() -> Int { Int(next()) << 8 | Int(next()) }

    /// A year, mostly at the edges of what a trace holds.
    mutating func year() -> Int {
        let edges = [1677, 1678, 1823, 1970, 2026, 2116, 2262, 2263, 0, 9999]
        let pick = Int(next())
        return pick < 160 ? edges[pick % edges.count] : next16() % 10_000
    }

    /// Two digits of `value`.
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `YYYY-MM-DD HH:MM:SS.ffffff`, any field anywhere in its digits' range.
    mutating func stamp() -> String {
        let y = year()
        let digits = String(y)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return "\(padded)-\(two(1 + Int(next()) % 12))-\(two(1 + Int(next()) % 31)) "
            + "\(two(Int(next()) % 24)):\(two(Int(next()) % 60)):\(two(Int(next()) % 61)).\(next16() % 1_000_000)"
    }

    /// A zone as the dated layouts print it.
    mutating func zone() -> String {
        let sign = next() < 128 ? "+" : "-"
        return sign + two(Int(next()) % 15) + two([0, 30, 45, 59][Int(next()) % 4])
    }

    /// One line of the capture in `layout`, with a lifetrace line of the app as its message.
    mutating func line(_ layout: Int) -> String {
        let message = [
            "lifetrace ev=app.didFinishLaunching dur=1ms", "lifetrace ev=app.didBecomeActive",
            "lifetrace ev=app.didEnterBackground",
        ][Int(next()) % 3]
        switch layout {
        case 0: return "\(stamp())\(zone())  0x1  Default  0x0  31848  0  App: (App) [com.example:lc] \(message)"
        case 1: return "\(stamp()) Df App[31848:159e4] [com.example:lc] \(message)"
        case 2: return "\(stamp())\(zone()) App[31848:16973] \(message)"
        case 3:
            return
                "{\"timestamp\":\"\(stamp())\(zone())\",\"processImagePath\":\"/x/App\",\"processID\":1,\"eventMessage\":\"\(message)\"}"
        case 4: return "default\t\(stamp()) \(zone())\tApp\t\(message)"
        case 5: return "default\t\(two(Int(next()) % 24)):\(two(Int(next()) % 60)):00.000000\(zone())\tApp\t\(message)"
        default:
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            let day = 1 + Int(next()) % 31
            return
                "\(months[Int(next()) % 12]) \(day < 10 ? " " : "")\(day) \(two(Int(next()) % 24)):\(two(Int(next()) % 60)):00 App(UIKitCore)[812] <Notice>: \(message)"
        }
    }
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzImportDates_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzImportDates($0, $1) }
}
