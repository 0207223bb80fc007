public import LifetraceCore

/// How an app receives its lifecycle (``TraceHeader/AppStyle``): the styles the simulator plays.
public typealias AppStyle = TraceHeader.AppStyle

extension TraceHeader.AppStyle {
    /// One line for `lifetrace simulate --list`.
    public var summary: String {
        switch self {
        case .uikitScenes:
            "scene manifest; UIKit scene delegate callbacks (scene.*), process events on the app delegate"
        case .appDelegate: "no scene manifest; the app delegate's UI callbacks (app.*) drive one window"
        case .swiftui: "SwiftUI App: scenePhase per scene and the App-level aggregate; an adaptor delegate for launch"
        }
    }
}
