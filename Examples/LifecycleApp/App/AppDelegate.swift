import LifetraceRecorder
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    override init() {
        super.init()
        // Records when a UI test sets LIFETRACE_PATH; the process holds the recorder.
        Recorder.fromEnvironment()
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }

    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        UISceneConfiguration(name: "Default", sessionRole: connectingSceneSession.role)
    }
}
