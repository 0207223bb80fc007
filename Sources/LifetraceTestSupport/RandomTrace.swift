public import LifetraceCore
import LifetraceSimulator

/// Random but well-formed traces for property tests of the codecs: every kind, every field, awkward
/// strings (quotes, control characters, `<script>`, non-ASCII), extreme integers and timestamps.
public enum RandomTrace {
    /// Strings that exercise escaping and UTF-8.
    public static let awkwardStrings = [
        "S1", "scene-2", "", "with \"quotes\"", "back\\slash", "line\nbreak\ttab", "\u{0001}control",
        "<script>alert(1)</script>", "ünïcødé ✓", "emoji 🧭", "a much longer scene identifier 0123456789abcdef",
    ]

    /// A header with known and extension members.
    public static func header<G: RandomNumberGenerator>(using rng: inout G) -> TraceHeader? {
        if Bool.random(using: &rng) && Bool.random(using: &rng) { return nil }
        var header = TraceHeader(
            clock: TraceClock.allCases.randomElement(using: &rng),
            startUnixNanoseconds: Int64.random(in: 0...1_800_000_000_000_000_000, using: &rng),
            app: "com.example." + String(Int.random(in: 0...999, using: &rng)),
            sceneManifest: Bool.random(using: &rng))
        header[.scenario] = .string(awkwardStrings.randomElement(using: &rng)!)
        header[.seed] = .int(Int64.random(in: .min ... .max, using: &rng))
        header[.faults] = .array([.string("a"), .string("b\"c")])
        header[metadata: "nested"] = .object([("x", .double(1.5)), ("y", .null), ("z", .bool(false))])
        return header
    }

    /// `count` events with non-decreasing timestamps.
    public static func events<G: RandomNumberGenerator>(count: Int, using rng: inout G) -> [LifecycleEvent] {
        var t = Int64.random(in: 0...1_000_000, using: &rng)
        var events: [LifecycleEvent] = []
        events.reserveCapacity(count)
        for _ in 0..<count {
            switch Int.random(in: 0..<20, using: &rng) {
            case 0: t += 0
            case 1: t += Int64.random(in: 0...Int64(UInt32.max) * 1000, using: &rng)
            default: t += Int64.random(in: 0...50_000_000, using: &rng)
            }
            events.append(event(at: t, using: &rng))
        }
        return events
    }

    /// One well-formed event at `t`.
    public static func event<G: RandomNumberGenerator>(at t: Int64, using rng: inout G) -> LifecycleEvent {
        let kind = EventKind.allCases.randomElement(using: &rng)!
        var event = LifecycleEvent(t: t, kind: kind)
        func maybe() -> Bool { Int.random(in: 0..<4, using: &rng) == 0 }
        let required = kind.requiredFields
        if required.contains(.scene) || maybe() { event.scene = awkwardStrings.randomElement(using: &rng) }
        if required.contains(.dur) || maybe() || maybe() {
            // The longest a handler at `t` can be: its end, t + dur, must fit 64 bits.
            event.dur = [0, 1, 255, 256, 65_535, 35_000_000, Int64.max - t].randomElement(using: &rng)!
        }
        if required.contains(.task) || maybe() {
            event.task = [0, 1, -1, 42, Int64.min, Int64.max].randomElement(using: &rng)!
        }
        if required.contains(.name) || maybe() { event.name = awkwardStrings.randomElement(using: &rng) }
        if required.contains(.phase) || maybe() { event.phase = ScenePhase.allCases.randomElement(using: &rng) }
        if required.contains(.reason) || maybe() {
            event.reason = ["user", "fetch", "push", "location", "bgtask", "swipe-away"].randomElement(using: &rng)
        }
        if maybe() { event.pid = Int64.random(in: -5...99_999, using: &rng) }
        if kind == .custom {
            event.label = ["saved", "call.incoming", "x", "<b>"].randomElement(using: &rng)
        }
        if required.contains(.attrs) || maybe() {
            event.attrs = [
                Attribute("dropped", .int(Int64.random(in: .min ... .max, using: &rng))),
                Attribute("ratio", .double([0.5, -1e-5, 1e300, 3.0, 0.1].randomElement(using: &rng)!)),
                Attribute("flag", .bool(Bool.random(using: &rng))),
                Attribute("note", .string(awkwardStrings.randomElement(using: &rng)!)),
            ].shuffled(using: &rng)
        }
        return event
    }
}
