import LifetraceCore

/// What the app's own process says of its UI state besides UIKit's deactivation reasons: the callbacks it prints
/// itself (``AppPrintLine``) and, on macOS, LaunchServices' and AppKit's lines (``MacAppLine``). A transition
/// another line derived already is not derived again: the app's print and the system's line of one transition
/// are one event.
extension LifecycleStateMachine {
    /// Marks an event the app's own print of its callback gave.
    static let fromAppPrint = Attribute(Attribute.Key.fromAppPrint, .bool(true))

    /// The app printed that one of its callbacks ran: the callback's event, marked `from_app_print`, unless the
    /// state it enters is the app's already (a system line of the same transition came first). A transition the
    /// lifecycle requires before it and that nothing said is derived unmarked (`applicationDidEnterBackground`
    /// printed while active: `app.willResignActive` first).
    mutating func printedCallback(_ kind: EventKind, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        let printed = [Self.fromAppPrint]
        switch kind {
        case .appDidBecomeActive:
            guard ui != .active else { return }
            if ui == .background { add(.appWillEnterForeground, entry, into: &events) }
            add(kind, entry, attributes: printed, into: &events)
            ui = .active
            launching = false
        case .appWillResignActive:
            if ui != .active, !uiSeen {
                // The first word of the app's UI state: it was active when the capture began.
                add(.appDidBecomeActive, entry, attributes: [Self.stateAtCaptureStart], into: &events)
                ui = .active
            }
            guard ui == .active else { return }
            add(kind, entry, attributes: printed, into: &events)
            ui = .inactive
        case .appDidEnterBackground:
            guard ui != .background else { return }
            if ui == .active { add(.appWillResignActive, entry, into: &events) }
            add(kind, entry, attributes: printed, into: &events)
            ui = .background
        case .appWillEnterForeground:
            if ui != .background, !uiSeen {
                add(.appDidEnterBackground, entry, attributes: [Self.stateAtCaptureStart], into: &events)
                ui = .background
            }
            guard ui == .background else { return }
            add(kind, entry, attributes: printed, into: &events)
            ui = .inactive
        default:
            // Launch, termination, memory warnings, hiding: callbacks that change no UI state here.
            add(kind, entry, attributes: printed, into: &events)
        }
        appPrints = true
    }

    /// A macOS app's front-most change or `isActive`: active exactly when it is the front-most app.
    mutating func macApp(_ line: MacAppLine, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        appKit = true
        switch line {
        case let .frontmost(front, becameFrontmost):
            // The process is told when it becomes the front-most app: that names it.
            if selection.bundleID == nil, becameFrontmost { selection.bundleID = front }
            setFront(front == selection.bundleID, entry, report: false, into: &events)
        case let .isActive(active):
            setFront(active, entry, report: true, into: &events)
        }
    }

    /// The app is (or is not) the front-most app: `app.didBecomeActive` / `app.willResignActive` on a change.
    /// AppKit's `isActive` is a report, not a transition: the first one of a process whose launch the capture does
    /// not show is the state the capture began in.
    private mutating func setFront(
        _ front: Bool, _ entry: LogLine, report: Bool,
        into events: inout [LifecycleEvent]
    ) {
        if front {
            guard ui != .active else { return }
            let attributes = report && !uiSeen && !launchShown ? [Self.stateAtCaptureStart] : []
            add(.appDidBecomeActive, entry, attributes: attributes, into: &events)
            ui = .active
            launching = false
        } else if ui == .active {
            add(.appWillResignActive, entry, into: &events)
            ui = .inactive
        }
    }
}
