import LifetraceCore

/// Every rule lifetrace checks, by id. `lifetrace rules` lists them; `lifetrace explain ID` prints one.
public enum RuleCatalog {
    /// The rules in id order: those declared here and those the built-in models declare for their own
    /// lifecycles (`rules` in `Schemas/models/*.json`).
    public static let all: [Rule] = (declared + LifecycleModel.builtIn.flatMap(\.rules)).sorted { $0.id < $1.id }

    /// The rules declared here, in id order: what code checks, and what the UIKit models name; then those of a
    /// service that code checks (``services``). (The built-in models are read against these, so they cannot depend
    /// on ``all``.)
    static let declared: [Rule] =
        [
            Rule(
                id: .activeNotFromInactive, severity: .error,
                title: "didBecomeActive only from the foreground-inactive state",
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): a scene moves from foreground-inactive to foreground-active, and UIKit calls sceneDidBecomeActive(_:)",
                explanation:
                    "The scene (or app) became active without first being in the foreground and inactive: a callback is missing or doubled, so state your code keeps per transition is wrong.",
                fix:
                    "Check that sceneWillEnterForeground (or scene(_:willConnectTo:) at launch) precedes sceneDidBecomeActive, and that nothing calls the delegate methods by hand."
            ),
            Rule(
                id: .resignNotFromActive, severity: .error, title: "willResignActive only from the active state",
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): sceneWillResignActive(_:) moves a scene from foreground-active to foreground-inactive",
                explanation: "The scene resigned active while it was not active.",
                fix: "Do not call willResignActive yourself; pair every resign with an earlier didBecomeActive."),
            Rule(
                id: .backgroundWithoutResign, severity: .error,
                title: "sceneDidEnterBackground without sceneWillResignActive",
                titles: [
                    .appDelegate: "applicationDidEnterBackground without applicationWillResignActive",
                    .watchKit: "applicationDidEnterBackground without applicationWillResignActive",
                    .appExtension: "NSExtensionHostDidEnterBackground without NSExtensionHostWillResignActive",
                ],
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle) and “About the background execution sequence” (https://developer.apple.com/documentation/uikit/about-the-background-execution-sequence): an active app first resigns active, then enters the background",
                explanation:
                    "The scene (or, without scenes, the app) entered the background straight from the active state. Work that should stop on resign (video, timers, blurring sensitive content before the switcher snapshot) did not run first. The finding's title names the callbacks the trace's platform has: the scene delegate's, the app delegate's (UIKit without scenes, WatchKit), or the host's notifications in an app extension.",
                fix:
                    "Make sure the resign callback (sceneWillResignActive, applicationWillResignActive) runs before the background one; pause and blur there."
            ),
            Rule(
                id: .foregroundNotFromBackground, severity: .error,
                title: "willEnterForeground only from the background",
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): sceneWillEnterForeground(_:) moves a scene from the background to the foreground",
                explanation: "The scene was told it enters the foreground while it was already in the foreground.",
                fix: "Pair every willEnterForeground with an earlier didEnterBackground (or the connection at launch)."),
            Rule(
                id: .disconnectNotFromBackground, severity: .error,
                title: "sceneDidDisconnect only from the background",
                source:
                    "Apple, “sceneDidDisconnect(_:)” (https://developer.apple.com/documentation/uikit/uiscenedelegate/scenediddisconnect(_:)) and Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): the system disconnects scenes from the background to reclaim their resources",
                explanation:
                    "The scene was disconnected while still in the foreground: the system releases scenes from the background, so something tore the scene down while the user could see it.",
                fix: "Let the scene reach the background before releasing it; never treat disconnection as termination."
            ),
            Rule(
                id: .sceneCallbackWithoutConnection, severity: .error,
                title: "scene callback without a live connection",
                source:
                    "Apple, “scene(_:willConnectTo:options:)” (https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:willconnectto:options:)): a scene's life starts with its connection",
                explanation:
                    "A scene callback arrived for a scene that is not connected (never connected, or disconnected).",
                fix:
                    "Connect the scene before using it; after sceneDidDisconnect, wait for a new scene(_:willConnectTo:)."
            ),
            Rule(
                id: .repeatedConnect, severity: .error, title: "willConnect once per connection",
                source:
                    "Apple, “scene(_:willConnectTo:options:)” (https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:willconnectto:options:)): called when the scene is added to the app, not on every return to the foreground",
                explanation:
                    "scene(_:willConnectTo:) ran again for a scene that is still connected: one-time setup is being repeated on every return to the foreground.",
                fix:
                    "Keep one-time window setup in scene(_:willConnectTo:) and move per-foreground work to sceneWillEnterForeground."
            ),
            Rule(
                id: .repeatedLaunch, severity: .error, title: "didFinishLaunching once per process",
                source:
                    "Apple, “Responding to the launch of your app” (https://developer.apple.com/documentation/uikit/responding-to-the-launch-of-your-app): application(_:didFinishLaunchingWithOptions:) runs once, when the process launches",
                explanation: "The launch callbacks ran twice in one process.",
                fix: "Do not call the launch methods yourself; a new launch needs a new process."),
            Rule(
                id: .uiBeforeLaunch, severity: .error, title: "scene or UI callback before didFinishLaunching",
                source:
                    "Apple, “Responding to the launch of your app” (https://developer.apple.com/documentation/uikit/responding-to-the-launch-of-your-app): launch finishes before the UI is set up",
                explanation:
                    "A scene or UI callback ran before the app finished launching: SDKs set up in didFinishLaunching are not ready yet.",
                fix:
                    "Check the process's launch sequence; nothing UI-related runs before application(_:didFinishLaunchingWithOptions:)."
            ),
            Rule(
                id: .terminateFromForeground, severity: .error, title: "applicationWillTerminate from the foreground",
                source:
                    "Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:)): called when the app is running in the background (not suspended) and the system needs to terminate it",
                explanation: "applicationWillTerminate arrived while a scene was still in the foreground.",
                fix: "Expect termination from the background only; save state in sceneDidEnterBackground.",
                check: .events([.appWillTerminate])),
            Rule(
                id: .eventAfterTerminate, severity: .error,
                title: "applicationWillTerminate is the process's last event",
                source:
                    "Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:)): the app is about to terminate",
                explanation: "The app kept running callbacks after applicationWillTerminate, or it ran twice.",
                fix: "Treat applicationWillTerminate as the end: nothing may be scheduled after it.",
                check: .process),
            Rule(
                id: .appDelegateUIWithManifest, severity: .error,
                title: "app-delegate UI callback with a scene manifest",
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): with scene support, UIKit reports UI life-cycle events to the scene delegates, not to the app delegate",
                explanation:
                    "An app-delegate UI callback (applicationDidBecomeActive and its siblings) fired although the app has a scene manifest. On a real device it never fires, so code that relies on it is dead.",
                fix:
                    "Move the work to the scene delegate (sceneDidBecomeActive, ...) or SwiftUI's scenePhase, and delete the app-delegate method.",
                check: .events([
                    .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
                ])),
            Rule(
                id: .appNotificationAgainstScenes, severity: .error,
                title: "application notification against its scenes",
                source:
                    "Apple, “applicationState” (https://developer.apple.com/documentation/uikit/uiapplication/applicationstate): “In a scene-based app, this property takes the value of the most active scene, which it determines from each scene’s activationState property”; and “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): a scene reaches foreground-active only from foreground-inactive",
                explanation:
                    "In a scene-based app captured from notifications, a UIApplication notification said the application moved where its scenes were not: it became active or resigned active while every scene was in the background, or entered the foreground or the background while a scene was active. UIKit posts these notifications as the most active scene moves, so this one did not come from UIKit (it was posted by hand, or a scene notification is missing).",
                fix:
                    "Do not post UIApplication lifecycle notifications yourself; check that every scene's notifications are observed (the recorder's scene capture), and respond per scene in the scene delegate.",
                check: .events([
                    .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
                ])),
            Rule(
                id: .appPhaseAgainstScenes, severity: .error, title: "SwiftUI App phase inconsistent with its scenes",
                source:
                    "Apple, “ScenePhase” (https://developer.apple.com/documentation/swiftui/scenephase): read in the App, the phase is “an aggregate value that reflects the phases of all the scenes in your app”: active when any scene is active, background only when all scenes are; “ScenePhase.inactive” (https://developer.apple.com/documentation/swiftui/scenephase/inactive): “An app or custom scene in this phase contains no scene instances in the ScenePhase.active phase”",
                explanation:
                    "The App-level scenePhase reported a phase its scenes never supported while it held: background while a scene stayed in the foreground, active while none was active, or inactive while a scene stayed active. The App's onChange and its scenes' are separate callbacks whose order SwiftUI does not document, so the App's phase is judged against its scenes from its arrival to its next phase (or the process's end, or the trace's): reported then, if no scene's change in between supported it.",
                fix: "Read the phase where it means what you need: per scene in a view, the aggregate in the App.",
                check: .events([.swiftuiScenePhase])),
            Rule(
                id: .scenePhaseOutOfOrder, severity: .error, title: "SwiftUI scene phase out of order",
                source:
                    "Apple, “ScenePhase” (https://developer.apple.com/documentation/swiftui/scenephase): a scene moves between active, inactive and background",
                explanation:
                    "A scene's scenePhase skipped a step (active straight to background, or a repeated phase).",
                fix: "Do not drive scenePhase handlers by hand; expect .inactive between .active and .background."),
            Rule(
                id: .taskEndWithoutBegin, severity: .error, title: "task.end without a matching task.begin",
                source:
                    "Apple, “Extending your app’s background execution time” (https://developer.apple.com/documentation/uikit/extending-your-app-s-background-execution-time): the identifier beginBackgroundTask returns is one you “must save and pass to the endBackgroundTask(_:) method”",
                explanation:
                    "endBackgroundTask was called for an identifier that is not open: never begun, or already ended (ended twice).",
                fix: "Save the identifier, end it exactly once, and set it to .invalid after ending it.",
                check: .tasks),
            Rule(
                id: .taskLeaked, severity: .error, title: "background task leaked",
                source:
                    "Apple, “Extending your app’s background execution time” (https://developer.apple.com/documentation/uikit/extending-your-app-s-background-execution-time): “If you don’t end your tasks in a timely manner, the system terminates your app”",
                explanation:
                    "A background task was still open when the process was suspended or ended, and the trace shows its time passing first: the process was seen alive with it open longer than its budget in the background (backgroundTask, 30 s by default, counted from the later of its begin and the last entry into the background: “backgroundTimeRemaining”). How the process ended is not the proof: a UI test's terminate() is a SIGKILL, a crash or a jetsam kill ends whatever ran, a capture stops wherever it was cut. A task left open younger than its budget is not reported; the process's end says it was killed with it (killed-with-background-task, or crashed and killed-by-jetsam, naming the task). A leak proven before a crash is still reported.",
                fix: "Call endBackgroundTask on every path, including errors and the expiration handler.",
                check: .tasks),
            Rule(
                id: .taskNotEndedOnExpiration, severity: .error,
                title: "background task not ended by its expiration handler",
                source:
                    "Apple, “beginBackgroundTask(withName:expirationHandler:)” (https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)): the handler runs shortly before the remaining background time reaches 0; “Failure to end the task explicitly will result in the termination of the app”",
                explanation:
                    "The task's expiration handler ran, and the task was ended only long after (more than the expirationGrace budget, 1 s by default) or never: the system kills the app for it (a background-task assertion timeout in MetricKit). Never ended: the expiration is the deadline itself, so it is reported whatever ended the process — a kill, a crash, a jetsam kill, a relaunch, the trace's end — once the process lived, or died, more than the grace after the expiration; an end within the grace leaves the task's end unknown.",
                fix: "End the task inside its expiration handler, after cancelling the work.",
                check: .tasks),
            Rule(
                id: .taskOverBackgroundTime, severity: .error, title: "background task over its time in the background",
                source:
                    "Apple, “backgroundTimeRemaining” (https://developer.apple.com/documentation/uikit/uiapplication/backgroundtimeremaining): the time counts “after the app enters the background and has started at least one task ... in the foreground”; about 30 s on current iOS",
                explanation:
                    "A background task ran longer in the background than the system allows, and its expiration handler was not called. Its time counts from the later of its begin and the app's last entry into the background: time in the foreground is unlimited, and a return to the foreground starts it afresh.",
                fix: "Split the work, or move it to a BGProcessingTask.",
                check: .tasks),
            Rule(
                id: .scheduledTaskNeverCompleted, severity: .error, title: "BGTask never completed",
                source:
                    "Apple, “setTaskCompleted(success:)” (https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)): “Not calling setTaskCompleted(success:) before the time for the task expires may result in the system killing your app”",
                explanation:
                    "A BGAppRefreshTask or BGProcessingTask started and was never completed: the process ended or was suspended with it open after its time had passed — its expiration handler ran (or, for a processing task, the user came back) more than the expirationGrace before the end, or a refresh task was seen running longer than its budget (refreshTask, 30 s). A task killed, crashed or cut off younger than that is not reported; the process's end names it.",
                fix: "Call setTaskCompleted(success:) on every path, the expiration handler's included.",
                check: .tasks),
            Rule(
                id: .scheduledTaskCompletedLate, severity: .error,
                title: "BGTask completed long after its time expired",
                source:
                    "Apple, “setTaskCompleted(success:)” (https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)) and “BGProcessingTask” (https://developer.apple.com/documentation/backgroundtasks/bgprocessingtask): “The system terminates any background processing tasks running when the user starts using the device”",
                explanation:
                    "A BGTask was completed more than the expirationGrace budget (1 s by default) after its time expired: its expiration handler ran, or, for a processing task, the user started using the device.",
                fix: "In the expiration handler, cancel the work and call setTaskCompleted(success: false) right away.",
                check: .tasks),
            Rule(
                id: .slowBackgroundHandler, severity: .error, title: "didEnterBackground handler over its five seconds",
                source:
                    "Apple, “applicationDidEnterBackground(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidenterbackground(_:)): “approximately five seconds to perform any tasks and return ... your app is terminated and purged from memory”",
                explanation:
                    "The didEnterBackground handler ran past the time the system gives it; the system kills apps for this. A handler written unfinished (its event went out while it ran) that never returned is judged by the time from the callback to its process's last event: a lower bound of its duration, and over the budget the process counts as killed in the handler.",
                fix: "Return quickly: start long work with beginBackgroundTask and run it on another queue."),
            Rule(
                id: .slowTerminateHandler, severity: .error,
                title: "applicationWillTerminate handler over its five seconds",
                source:
                    "Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:)): “approximately five seconds to perform any tasks and return”",
                explanation:
                    "applicationWillTerminate ran past its time; the process is killed before the handler finishes. A handler written unfinished that never returned is judged by the time from the callback to its process's last event, a lower bound of its duration.",
                fix: "Do the saving in sceneDidEnterBackground; keep applicationWillTerminate to last-resort cleanup."),
            Rule(
                id: .refreshTaskOverTime, severity: .error, title: "background refresh task over 30 seconds",
                source:
                    "Apple, “Advances in App Background Execution” (WWDC 2019, session 707, https://developer.apple.com/videos/play/wwdc2019/707/): a BGAppRefreshTask gets up to 30 seconds",
                explanation: "A BGAppRefreshTask ran past its time.",
                fix: "Finish refresh work within 30 s and call setTaskCompleted; use BGProcessingTask for long work.",
                check: .tasks),
            Rule(
                id: .slowLaunch, severity: .warning, title: "launch to first active over budget",
                source:
                    "Apple, “Reducing your app’s launch time” (https://developer.apple.com/documentation/xcode/reducing-your-app-s-launch-time)",
                explanation: "The time from process launch to the first active scene exceeded the launch budget.",
                fix: "Keep didFinishLaunching lean; defer SDK setup that the first screen does not need.",
                check: .process),
            Rule(
                id: .longInactiveEpisode, severity: .warning, title: "inactive episode over budget",
                source:
                    "Apple, “Managing your app’s life cycle” (https://developer.apple.com/documentation/uikit/managing-your-app-s-life-cycle): foreground-inactive is a transition between the active state and the background, or a short interruption",
                explanation: "The scene stayed inactive longer than the configured budget.",
                fix: "Check what keeps the scene from becoming active again, or raise the budget for this app."),
            Rule(
                id: .workWhileSuspended, severity: .error, title: "work while suspended",
                source:
                    "Apple, “About the background execution sequence” (https://developer.apple.com/documentation/uikit/about-the-background-execution-sequence): a suspended app runs no code",
                explanation:
                    "The app ran code while the process was suspended: a timer or queue was not paused when the app went to the background.",
                fix:
                    "Invalidate timers and suspend queues in sceneDidEnterBackground; resume them in sceneWillEnterForeground.",
                check: .process),
            Rule(
                id: .saveOnlyInTerminate, severity: .error, title: "state saved only in applicationWillTerminate",
                source:
                    "Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:)): for apps that support background execution it is generally not called; save in sceneDidEnterBackground(_:) instead",
                explanation:
                    "The app marked a save (custom.save) only in applicationWillTerminate, never on entering the background; an app terminated while suspended loses the data.",
                fix: "Save in sceneDidEnterBackground (or when scenePhase becomes .background).",
                check: .events([.custom])),
        ] + services

    /// The rule with `id`, or `nil`.
    public static func rule(_ id: RuleID) -> Rule? {
        byID[RuleID(rawValue: id.rawValue.uppercased())]
    }

    private static let byID: [RuleID: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}
