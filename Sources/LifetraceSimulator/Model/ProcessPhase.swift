/// What the process is doing; suspension is invisible to the app, so only ground truth tells of it.
enum ProcessPhase: Equatable {
    case notRunning
    case running
    case suspended
}
