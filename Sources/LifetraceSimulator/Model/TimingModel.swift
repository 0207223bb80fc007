// `pow`: the C library's, which Foundation brings on every platform.
import Foundation

/// The seeded distributions every duration of the simulator is drawn from.
///
/// The ranges follow the seeds and `domain-notes.md`: handlers take milliseconds, launch tens to hundreds of
/// milliseconds, inactive episodes milliseconds to seconds, foreground sessions minutes, background work
/// seconds, suspension minutes to hours; the system allows `didEnterBackground` about 5 s and a background
/// task about 30 s.
struct TimingModel {
    var rng: SplitMix64

    static let millisecond: Int64 = 1_000_000
    static let second: Int64 = 1_000_000_000

    /// A value whose logarithm is uniform between those of `low` and `high`: many short, some long.
    mutating func logUniform(_ low: Int64, _ high: Int64) -> Int64 {
        let u = Double(rng.next() >> 11) / Double(1 << 53)
        let value = Double(low) * pow(Double(high) / Double(low), u)
        return max(low, min(high, Int64(value)))
    }

    mutating func uniform(_ low: Int64, _ high: Int64) -> Int64 {
        low + Int64(rng.next() % UInt64(high - low + 1))
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(rng.next() >> 11) / Double(1 << 53) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(rng.next() % UInt64(choices.count))]
    }

    /// A UI callback's handler.
    mutating func handler() -> Int64 { logUniform(300_000, 25 * Self.millisecond) }
    /// `didFinishLaunching`: SDK setup and the like.
    mutating func launchHandler() -> Int64 { logUniform(30 * Self.millisecond, 400 * Self.millisecond) }
    /// A `didEnterBackground` handler that saves state; well under its 5 s.
    mutating func backgroundHandler() -> Int64 { logUniform(2 * Self.millisecond, 400 * Self.millisecond) }
    /// The pause between one callback returning and the next starting.
    mutating func gap() -> Int64 { logUniform(20_000, 3 * Self.millisecond) }
    /// An interruption: a call, Siri, Control Centre.
    mutating func inactiveEpisode() -> Int64 { logUniform(300 * Self.millisecond, 40 * Self.second) }
    /// Time on screen between two stimuli.
    mutating func foregroundSession() -> Int64 { logUniform(2 * Self.second, 10 * 60 * Self.second) }
    /// From the snapshot to suspension, when nothing keeps the app running.
    mutating func suspendDelay() -> Int64 { uniform(300 * Self.millisecond, 2500 * Self.millisecond) }
    /// Time suspended before the next event.
    mutating func suspension() -> Int64 { logUniform(30 * Self.second, 3 * 3600 * Self.second) }
    /// Work done under a background task that finishes in time.
    mutating func taskWork() -> Int64 { logUniform(500 * Self.millisecond, 20 * Self.second) }
    /// When the expiration handler runs, counted from `task.begin`: shortly before the 30 s run out.
    mutating func expiry() -> Int64 { uniform(26 * Self.second, 29 * Self.second) }
}
