/// What the process's start left in its environment, read once, the first time the recorder is used.
///
/// iOS 15 and later may *prewarm* an app: start its process, run it up to before `main`'s UI work, and
/// launch it for the user much later. Such a process has `ActivePrewarm=1` in its environment until
/// `application(_:didFinishLaunchingWithOptions:)`, after which UIKit removes it; so it must be read before
/// then. Create the recorder in the app delegate's `init` or the SwiftUI `App`'s `init` and it is.
struct ProcessLaunch: Sendable {
    /// Whether the system prewarmed the process.
    let prewarmed: Bool

    /// The launch as `environment` shows it.
    init(environment: (String) -> String?) {
        prewarmed = environment("ActivePrewarm") == "1"
    }

    /// The launch as the environment showed it when first asked.
    static let current = ProcessLaunch { SystemInterface.environment($0) }
}
