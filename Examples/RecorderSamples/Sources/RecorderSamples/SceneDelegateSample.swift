#if canImport(UIKit) && !os(watchOS)
import LifetraceRecorder
import UIKit

final class SceneDelegateSample: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    // README: scene-delegate
    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession,
        options connectionOptions: UIScene.ConnectionOptions
    ) {
        Recorder.shared?.sceneWillConnect(session.persistentIdentifier, options: connectionOptions)
        // ... the scene's own set-up
    }
    // README: end
}
#endif
