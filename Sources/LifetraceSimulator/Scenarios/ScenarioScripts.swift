import LifetraceCore

/// The scripted scenarios: each drives the model through one documented sequence of the seeds.
extension SimulatedProcess {
    private static let second = TimingModel.second

    /// Runs `scenario` once. Every script starts with the process not running.
    mutating func play(_ scenario: Scenario) throws {
        switch scenario {
        case .coldLaunch:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
        case .backgroundAndReturn:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try goHome()
            try idle(timing.suspension())
            try returnToForeground(0)
            try idle(timing.foregroundSession())
            try goHome()
        case .phoneCall:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try interruption(length: timing.logUniform(5 * Self.second, 300 * Self.second))
            try idle(timing.foregroundSession())
        case .controlCentre:
            try launch(reason: "user")
            for _ in 0..<2 {
                try idle(timing.foregroundSession())
                try interruption(length: timing.logUniform(Self.second / 2, 8 * Self.second))
            }
            try idle(timing.foregroundSession())
        case .backgroundLaunch:
            for reason in ["fetch", "push", "location"] {
                try launch(reason: reason)
                try idle(timing.suspension())
                try terminate(reason: "memory-pressure")
                try idle(timing.suspension())
            }
        case .terminateFromSuspended:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try goHome()
            try idle(timing.suspension())
            try terminate(reason: "memory-pressure")
        case .terminateFromBackground:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try goHome(settle: false)
            if isRunning {
                try idle(timing.uniform(Self.second / 2, 3 * Self.second))
                try terminate(reason: "terminated-in-background", willTerminate: true)
            }
        case .backgroundTask:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try goHome(settle: false)
            if isRunning { try backgroundTask(name: "Finish Network Tasks", work: timing.taskWork(), expires: false) }
            try settle()
            try idle(timing.suspension())
            if process == .suspended { try returnToForeground(0) } else { try launch(reason: "user") }
            try idle(timing.foregroundSession())
        case .backgroundTaskExpiry:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try goHome(settle: false)
            if isRunning { try backgroundTask(name: "Upload Photos", work: 0, expires: true) }
            try settle()
        case .multiWindow:
            try multiWindow()
        case .swiftuiPhases:
            try launch(reason: "user")
            try idle(timing.foregroundSession())
            try openWindow()
            try idle(timing.foregroundSession())
            try goHome()
            try idle(timing.suspension())
            try returnToForeground(0)
            try idle(timing.foregroundSession())
        case .random:
            try randomWalk(until: { _ in true })
        }
    }

    /// Apple, “Managing your app’s life cycle”: every foreground scene resigns and enters the background;
    /// the app is suspended shortly after unless told not to settle.
    mutating func goHome(settle shouldSettle: Bool = true) throws {
        for index in foregroundScenes where process == .running {
            try enterBackground(index)
        }
        if shouldSettle { try settle() }
    }

    /// Apple, “Managing your app’s life cycle”: active → inactive → active, no background.
    mutating func interruption(length: Int64) throws {
        let active = activeScenes
        for index in active { try resignActive(index) }
        try idle(length)
        for index in active where scenes[index].state == .inactive { try activate(index) }
    }

    /// Apple, “Managing your app’s life cycle”: a second window, Slide Over over the first, Split View, then the second
    /// window closed for good.
    mutating func multiWindow() throws {
        try launch(reason: "user")
        try idle(timing.foregroundSession())
        guard let second = try openWindow() else {
            // One window only: the scenario is Slide Over and going home.
            try interruption(length: timing.inactiveEpisode())
            try idle(timing.foregroundSession())
            try goHome()
            return
        }
        try idle(timing.foregroundSession())
        // Slide Over: the first window goes inactive while the floating app is used.
        if scenes[0].state == .active {
            try resignActive(0)
            try idle(timing.inactiveEpisode())
            try activate(0)
        }
        try idle(timing.foregroundSession())
        if faults.contains(.disconnectInForeground) {
            try discardSession(second)  // straight from the foreground
        } else {
            try enterBackground(second)
            try idle(timing.uniform(Self.second, 30 * Self.second))
            try discardSession(second)
        }
        try idle(timing.foregroundSession())
        try goHome()
    }

    /// A new window (iPad): a new scene session connects and becomes active beside the others.
    /// Without a scene manifest an app has one window: nothing happens.
    @discardableResult
    mutating func openWindow() throws -> Int? {
        guard style != .appDelegate else { return nil }
        let index = addScene()
        try connect(index)
        try activate(index)
        return index
    }
}
