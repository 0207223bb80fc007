/// How an app receives its lifecycle: the three styles Apple’s “Managing your app’s life cycle” describes (app delegate, UIKit scenes, SwiftUI).
public enum AppStyle: String, CaseIterable, Sendable {
    /// Scene-based UIKit: a scene manifest, `scene.*` callbacks, the app delegate keeps process-level ones.
    case uikitScenes = "uikit-scenes"
    /// App delegate only, as before iOS 13: no scene manifest, `app.*` UI callbacks.
    case appDelegate = "app-delegate"
    /// SwiftUI: `scenePhase` per scene and the App-level aggregate, an adaptor app delegate for launch.
    case swiftui

    /// Whether the app's Info.plist has a scene manifest.
    public var hasSceneManifest: Bool { self != .appDelegate }

    /// One line for `lifetrace simulate --list`.
    public var summary: String {
        switch self {
        case .uikitScenes: "scene manifest; UIKit scene delegate callbacks (scene.*), process events on the app delegate"
        case .appDelegate: "no scene manifest; the app delegate's UI callbacks (app.*) drive one window"
        case .swiftui: "SwiftUI App: scenePhase per scene and the App-level aggregate; an adaptor delegate for launch"
        }
    }
}
