package import LifetraceCore

/// The state of the application and of each connected scene at the moment recording starts, as the
/// application object reports it. A recorder started after launch records it (`app.state`, `scene.state`)
/// so that `lifetrace check` knows where the lifecycle stands and does not misread the callbacks that follow.
package struct ApplicationSnapshot: Equatable, Sendable {
    /// A connected scene and its state.
    package struct Scene: Equatable, Sendable {
        package var id: String
        package var phase: ScenePhase

        package init(id: String, phase: ScenePhase) {
            self.id = id
            self.phase = phase
        }
    }

    /// The application's state, if the platform reports one.
    package var application: ScenePhase?
    /// The connected scenes that are attached, in the order read.
    package var scenes: [Scene]
    /// Whether the application had finished launching: only then is a snapshot recorded (before, its
    /// launch callbacks are still to come and say it all).
    package var launched: Bool

    package init(application: ScenePhase?, scenes: [Scene], launched: Bool) {
        self.application = application
        self.scenes = scenes
        self.launched = launched
    }

    /// `UIApplication.State` (and WatchKit's `WKApplicationState`): 0 active, 1 inactive, 2 background.
    static func phase(applicationState raw: Int) -> ScenePhase? {
        switch raw {
        case 0: .active
        case 1: .inactive
        case 2: .background
        default: nil
        }
    }

    /// `UIScene.ActivationState`: -1 unattached (no state to record), then the same raw values as
    /// `UIApplication.State`: 0 foreground active, 1 foreground inactive, 2 background.
    static func phase(sceneActivationState raw: Int) -> ScenePhase? {
        phase(applicationState: raw)
    }

    /// A UIKit snapshot. UIKit connects scenes only after `application(_:didFinishLaunchingWithOptions:)`
    /// returns and makes the application active only after that, so an attached scene or an active
    /// application shows a launch that is over; an inactive or background application with no scene may
    /// still be launching, and its launch callbacks will say where it stands.
    static func uikit(applicationState: Int?, scenes: [(id: String, activationState: Int)]) -> ApplicationSnapshot {
        let attached = scenes.compactMap { scene in
            phase(sceneActivationState: scene.activationState).map { Scene(id: scene.id, phase: $0) }
        }
        let application = applicationState.flatMap(phase(applicationState:))
        return ApplicationSnapshot(
            application: application, scenes: attached,
            launched: application == .active || !attached.isEmpty)
    }

    /// A WatchKit snapshot: an active application has finished launching.
    static func watchkit(applicationState: Int?) -> ApplicationSnapshot {
        let application = applicationState.flatMap(phase(applicationState:))
        return ApplicationSnapshot(application: application, scenes: [], launched: application == .active)
    }

    /// An AppKit snapshot: `NSApplication.isRunning` is set once launching is done and the main event loop
    /// runs; `isActive` says whether the app is frontmost.
    static func appkit(isActive: Bool, isRunning: Bool) -> ApplicationSnapshot {
        ApplicationSnapshot(application: isActive ? .active : .inactive, scenes: [], launched: isRunning)
    }
}
