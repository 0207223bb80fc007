import Foundation

/// The platform a process runs on, as the lifecycle's detection needs it (`TraceHeader.Lifecycle.detect`).
enum ApplePlatform: Sendable, CaseIterable {
    case iOS, tvOS, visionOS, watchOS, macOS, macCatalyst
    /// Not an Apple platform (Linux, Windows).
    case other

    /// The platform this process runs on.
    static var current: ApplePlatform {
        #if targetEnvironment(macCatalyst)
        .macCatalyst
        #elseif os(iOS)
        .iOS
        #elseif os(tvOS)
        .tvOS
        #elseif os(visionOS)
        .visionOS
        #elseif os(watchOS)
        .watchOS
        #elseif os(macOS)
        .macOS
        #else
        .other
        #endif
    }
}
