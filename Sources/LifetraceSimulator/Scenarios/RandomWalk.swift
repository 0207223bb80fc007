import LifetraceCore

/// The `random` scenario: a seeded walk over every stimulus, for long traces.
extension SimulatedProcess {
    private static let second = TimingModel.second

    /// Applies random stimuli, each legal in the current state, until `done` says so (checked between
    /// stimuli, so the trace never stops in the middle of a transition).
    mutating func randomWalk(until done: (SimulatedProcess) -> Bool) throws {
        repeat {
            try randomStimulus()
        } while !done(self)
    }

    private mutating func randomStimulus() throws {
        switch process {
        case .notRunning:
            try idle(timing.logUniform(Self.second, 600 * Self.second))
            let reason = timing.chance(0.7) ? "user" : timing.pick(["fetch", "push", "location", "bgtask"])
            try launch(reason: reason)
        case .suspended:
            switch timing.uniform(0, 99) {
            case 0..<45: try returnToForeground(0)
            case 45..<75: try wakeForEvent(timing.pick(["fetch", "push", "location"]))
            case 75..<88: try terminate(reason: "memory-pressure")
            case 88..<97: try terminate(reason: "user-swipe", discardSessions: true)
            default: try terminate(reason: "reboot")
            }
            if process == .suspended { try idle(timing.suspension()) }
        case .running where foregroundScenes.isEmpty:
            // In the background and running: finish work or be terminated while running, then suspend.
            switch timing.uniform(0, 99) {
            case 0..<25: try backgroundTask(name: "sync", work: timing.taskWork(), expires: false)
            case 25..<32: try backgroundTask(name: "upload", work: 0, expires: true)
            case 32..<35: try terminate(reason: "terminated-in-background", willTerminate: true)
            default: break
            }
            try settle()
            if process == .suspended { try idle(timing.suspension()) }
        case .running:
            try foregroundStimulus()
        }
    }

    private mutating func foregroundStimulus() throws {
        try idle(timing.foregroundSession())
        let multi = style != .appDelegate
        switch timing.uniform(0, 99) {
        case 0..<30: try goHome(settle: false)
        case 30..<40: try interruption(length: timing.logUniform(5 * Self.second, 600 * Self.second))  // call
        case 40..<55:  // Control Centre, Siri
            try interruption(length: timing.logUniform(Self.second / 3, 10 * Self.second))
        case 55..<62: try goHome(settle: false)  // screen lock: the same callbacks as going home
        case 62..<72:  // app switcher: inactive, then back or away
            try interruption(length: timing.logUniform(Self.second / 2, 5 * Self.second))
            if timing.chance(0.5) { try goHome(settle: false) }
        case 72..<77: try callbackMemoryWarning()
        case 77..<85 where multi && connectedScenes.count < 3:
            // A new window, or one whose session survived a disconnection or a relaunch.
            if let index = scenes.indices.first(where: { scenes[$0].state == .unattached }) {
                try connect(index)
                try activate(index)
            } else {
                try openWindow()
            }
        case 85..<92 where multi && scenes.count > 1:
            let index = scenes.count - 1
            if scenes[index].state.isForeground { try enterBackground(index) }
            if process == .running { try discardSession(index) }
        case 92..<96 where multi && connectedScenes.contains(where: { $0 > 0 }):
            // A background scene is disconnected to free memory, and later reconnects.
            let index = connectedScenes.last!
            if scenes[index].state.isForeground { try enterBackground(index) }
            if process == .running {
                try disconnect(index)
                try idle(timing.foregroundSession())
                try connect(index)
                try activate(index)
            }
        default:
            try interruption(length: timing.logUniform(Self.second / 3, 3 * Self.second))
        }
    }
}
