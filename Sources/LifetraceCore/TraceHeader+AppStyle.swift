extension TraceHeader {
    /// How an app receives its lifecycle: the three styles Apple’s “Managing your app’s life cycle” describes (app
    /// delegate, UIKit scenes, SwiftUI). The simulator writes it as the header's `style`; the analysis reads it to
    /// pick the per-style settings of `lifetrace.json`.
    public enum AppStyle: String, CaseIterable, Sendable {
        /// Scene-based UIKit: a scene manifest, `scene.*` callbacks, the app delegate keeps process-level ones.
        case uikitScenes = "uikit-scenes"
        /// App delegate only, as before iOS 13: no scene manifest, `app.*` UI callbacks.
        case appDelegate = "app-delegate"
        /// SwiftUI: `scenePhase` per scene and the App-level aggregate, an adaptor app delegate for launch.
        case swiftui

        /// Whether the app's Info.plist has a scene manifest.
        public var hasSceneManifest: Bool { self != .appDelegate }
    }
}
