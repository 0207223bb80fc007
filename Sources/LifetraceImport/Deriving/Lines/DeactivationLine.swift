/// UIKit's deactivation-reason lines (`Schemas/oslog-mapping.md`, *Deactivation reasons*):
/// `Deactivation reason added: 12; deactivation reasons: 2080 -> 6176; animating application lifecycle event: 1`.
///
/// Each reason is a bit of a mask; the app is active exactly when none is left.
struct DeactivationLine: Sendable, Equatable {
    /// The reason added or removed.
    var reason: Int64
    /// The mask before the line.
    var old: Int64
    /// The mask after it.
    var new: Int64

    /// UIKit's deactivation reason 10: the app is launching (`0 -> 1024`, the first line of a launch).
    static let launchReason: Int64 = 10
    /// UIKit's deactivation reason 11: the app is not in the foreground (set while launching until its scene
    /// is shown, and added just before `UIApplicationDidEnterBackgroundNotification`; see oslog-mapping.md).
    static let backgroundReason: Int64 = 11

    /// Whether `message` is a deactivation-reason line (which ``parse(_:)`` may still fail to read).
    static func isDeactivation(_ message: String) -> Bool {
        message.hasPrefix("Deactivation reason ")
    }

    /// The reason and masks of a deactivation-reason line; `nil` if it does not parse.
    static func parse(_ message: String) -> DeactivationLine? {
        guard message.hasPrefix("Deactivation reason added: ") || message.hasPrefix("Deactivation reason removed: "),
            let reasons = UTF8Search.range(of: "deactivation reasons: ", in: message),
            let arrow = UTF8Search.range(of: " -> ", in: message, from: reasons.upperBound)
        else { return nil }
        let before = message[reasons.upperBound..<arrow.lowerBound]
        let after = UTF8Search.integer(message, at: arrow.upperBound)
        let reasonStart = message.utf8.index(
            after: UTF8Search.firstIndex(
                of: UInt8(ascii: ":"), in: message, from: message.startIndex) ?? message.startIndex)
        let reasonText = UTF8Search.prefix(message, from: reasonStart) { $0 == UInt8(ascii: ";") }.dropFirst()
        guard let old = Int64(before), let new = after, let reason = Int64(reasonText) else { return nil }
        return DeactivationLine(reason: reason, old: old, new: new)
    }

    /// Whether `message` is UIKit's launch line (`Deactivation reason added: 10; deactivation reasons: 0 -> 1024`).
    static func isLaunchLine(_ message: String) -> Bool {
        message.hasPrefix("Deactivation reason added: 10; deactivation reasons: 0 -> 1024;")
    }

    /// Whether this line is UIKit's launch: reason 10 added to no reasons.
    var isLaunch: Bool {
        reason == Self.launchReason && old == 0 && new == 1 << Self.launchReason
    }
}
