import LifetraceAnalysis

extension ExportLayout {
    /// The groups of tracks of a process; a group has more than one track where its slices overlap.
    enum Group: Hashable {
        case events
        case state
        case appDelegate
        case tasks
        case scene(String)
        case sceneState(String)
        /// A service's group (its events are named by the service as a scene's by the scene): `service NAME`.
        case service(String)
        case serviceState(String)
        /// The one group of the export's own process that tells what reading the trace warned of.
        case inputWarnings

        /// The groups every process may have, one each, in the order of their fixed slots in ``ProcessTracks``.
        static let fixed: [Group] = [.events, .state, .appDelegate, .tasks]

        /// The fixed slots of ``fixed``'s groups.
        static let eventsSlot = 0, stateSlot = 1, appDelegateSlot = 2, tasksSlot = 3

        /// The group's fixed slot in ``ProcessTracks``; `nil` for a scene's group (many a trace has countless).
        var fixedSlot: Int? {
            switch self {
            case .events: Self.eventsSlot
            case .state: Self.stateSlot
            case .appDelegate: Self.appDelegateSlot
            case .tasks: Self.tasksSlot
            case .scene, .sceneState, .service, .serviceState, .inputWarnings: nil
            }
        }
    }
}
