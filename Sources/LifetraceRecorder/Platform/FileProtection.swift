#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import Foundation
#endif

/// The data protection a trace file needs on Apple's device platforms.
enum FileProtection {
    /// Gives the file or directory at `path` the protection class `completeUntilFirstUserAuthentication`: readable
    /// and writable once the device was unlocked after boot, also while it is locked again; a directory's class is
    /// the one the files created in it take. Under `complete`, the default of some apps, a flush while the device
    /// is locked (in the background, at termination) fails, and so does creating a trace then. Elsewhere it does
    /// nothing.
    static func keepWritableAfterFirstUnlock(_ path: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }
}
