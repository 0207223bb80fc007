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

        /// The groups every process may have, one each, in the order of their fixed slots in ``ProcessTracks``.
        static let fixed: [Group] = [.events, .state, .appDelegate, .tasks]

        /// The group's fixed slot in ``ProcessTracks``; `nil` for a scene's group (many a trace has countless).
        var fixedSlot: Int? {
            switch self {
            case .events: 0
            case .state: 1
            case .appDelegate: 2
            case .tasks: 3
            case .scene, .sceneState, .service, .serviceState: nil
            }
        }

        /// The name of the group's first track: a scene's id cut at ``TraceAnalyzer/keptStringLength`` bytes (its
        /// slices' arguments keep it whole), so that a track's name stays small whatever a trace names.
        var name: String {
            switch self {
            case .events: "events"
            case .state: "process state"
            case .appDelegate: "app delegate"
            case .tasks: "background tasks"
            case let .scene(scene): scene.isEmpty ? "app" : "scene " + Self.bounded(scene)
            case let .sceneState(scene): scene.isEmpty ? "app state" : "scene " + Self.bounded(scene) + " state"
            case let .service(service): "service " + Self.bounded(service)
            case let .serviceState(service): "service " + Self.bounded(service) + " state"
            }
        }

        private static func bounded(_ scene: String) -> String {
            let limit = TraceAnalyzer.keptStringLength
            guard scene.utf8.count > limit else { return scene }
            return String(decoding: scene.utf8.prefix(limit), as: UTF8.self) + "…"
        }
    }
}
