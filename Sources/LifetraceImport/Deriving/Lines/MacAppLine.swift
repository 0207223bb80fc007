/// The lines a macOS app's own process logs as it comes to the front and leaves it (`Schemas/oslog-mapping.md`,
/// *macOS apps*): LaunchServices tells the process of each change of the front-most app, and AppKit logs
/// `NSApplication.isActive` as it updates the app's automatic-termination state.
enum MacAppLine: Equatable {
    /// `Calling block with kLSNotifyBecameFrontmost { ... "CFBundleIdentifier"="ID" ... }` or
    /// `... kLSNotifyLostFrontmost ...`: the app now in front is `front`, in both (the payload of
    /// `LostFrontmost` names the app that took the front, not the one that lost it). `becameFrontmost` says
    /// which notification it was.
    case frontmost(front: String, becameFrontmost: Bool)
    /// `void _updateToReflectAutomaticTerminationState(void) ... isActive=1 ...`: `NSApplication.isActive`.
    case isActive(Bool)

    private static let lostFront = "Calling block with kLSNotifyLostFrontmost "
    private static let becameFront = "Calling block with kLSNotifyBecameFrontmost "
    private static let automaticTermination = "void _updateToReflectAutomaticTerminationState(void) "

    /// What `message`, a line of the app's process, says; `nil` for anything else. Its first byte decides
    /// before anything is compared.
    static func observe(_ message: String) -> MacAppLine? {
        guard let first = message.utf8.first else { return nil }
        if first == UInt8(ascii: "C") {
            let became = message.hasPrefix(becameFront)
            guard became || message.hasPrefix(lostFront),
                let key = UTF8Search.range(of: "\"CFBundleIdentifier\"=\"", in: message)
            else { return nil }
            let front = UTF8Search.prefix(message, from: key.upperBound) { $0 == UInt8(ascii: "\"") }
            return front.isEmpty ? nil : .frontmost(front: String(front), becameFrontmost: became)
        }
        if first == UInt8(ascii: "v"), message.hasPrefix(automaticTermination) {
            guard let flag = UTF8Search.range(of: " isActive=", in: message) else { return nil }
            switch UTF8Search.integer(message, at: flag.upperBound) {
            case 1: return .isActive(true)
            case 0: return .isActive(false)
            default: return nil
            }
        }
        return nil
    }
}
