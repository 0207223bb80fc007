import LifetraceAnalysis
import LifetraceCore

extension ExportLayout {
    /// The lanes of one group of tracks and the tracks declared for them.
    struct GroupTracks {
        var group: Group
        var lanes = SliceLanes()
        var tracks: [ExportTrack] = []

        /// Makes the group `group`'s, with no lane and no track, as new, keeping its memory.
        mutating func reset(group: Group) {
            self.group = group
            lanes.removeAll()
            tracks.removeEachKeepingCapacity()
        }
    }

    /// A slice begun and not yet ended: an open task, or a handler written unfinished.
    struct OpenSlice {
        var track: ExportTrack
        /// Its group's slot in ``ProcessTracks/groups`` (a group with a slice open is never let go).
        var slot: Int
        var lane: Int
        var start: Int64
        var expired = false
    }

    /// A handler written unfinished, found again by its group and event name when it returns.
    struct HandlerKey: Hashable {
        var group: Group
        var name: String
    }

    /// The running process's tracks and what it has open.
    ///
    /// Its groups live in slots of one array: the four a process has one each at fixed slots (found with no
    /// hashing), scenes' groups in the slots after, found by their scene through ``sceneSlots``; a slot let go is
    /// reused.
    struct ProcessTracks {
        private(set) var info: ExportProcess
        var groups: [GroupTracks] = Group.fixed.map { GroupTracks(group: $0) }
        /// Whether each fixed group has been used (it counts toward ``ExportLayout/liveGroupLimit`` from then).
        var fixedUsed = [Bool](repeating: false, count: Group.fixed.count)
        /// The slots of each scene's two groups (its callbacks', its states'), -1 where it has none.
        var sceneSlots: [String: SceneSlots] = [:]
        /// The names the process's service events gave: their groups are named as services', not scenes'.
        var services: Set<String> = []
        /// The state each of its services is in, while it is in one (``ServiceLaneState``).
        var serviceStates: [String: ServiceLaneState] = [:]
        /// The scene looked up last and its slots (while ``hasLastScene``), and the one before (while
        /// ``hasPreviousScene``): consecutive events and stretches mostly go to one or two scenes' groups, found again
        /// with no hashing and no reference counted.
        private var lastScene = ""
        private var lastSceneSlots = SceneSlots()
        private var hasLastScene = false
        private var previousScene = ""
        private var previousSceneSlots = SceneSlots()
        private var hasPreviousScene = false
        /// Slots let go, to reuse.
        var freeSlots: [Int] = []
        /// The groups in use, fixed ones included once used.
        var liveGroups = 0
        var openTasks: [Int64: OpenSlice] = [:]
        var unfinished: [HandlerKey: OpenSlice] = [:]
        /// Slices drawn as instants because every lane of their track was taken.
        var unplaced = 0

        init(info: ExportProcess) {
            self.info = info
        }

        /// Makes these the tracks of the process `info`, which starts, as new ones would be, keeping their memory:
        /// a trace of thousands of short processes allocates their groups once.
        mutating func restart(info: ExportProcess) {
            self.info = info
            // Only the groups in use hold anything: those let go were emptied then.
            for fixed in fixedUsed.indices where fixedUsed[fixed] {
                groups[fixed].reset(group: Group.fixed[fixed])
                fixedUsed[fixed] = false
            }
            for slots in sceneSlots.values {
                if slots.callbacks >= 0 { groups[slots.callbacks].reset(group: .events) }
                if slots.states >= 0 { groups[slots.states].reset(group: .events) }
            }
            freeSlots.removeAll(keepingCapacity: true)
            freeSlots.append(contentsOf: Group.fixed.count..<groups.count)
            sceneSlots.removeAll(keepingCapacity: true)
            services.removeAll(keepingCapacity: true)
            serviceStates.removeAll(keepingCapacity: true)
            hasLastScene = false
            hasPreviousScene = false
            liveGroups = 0
            openTasks.removeAll(keepingCapacity: true)
            unfinished.removeAll(keepingCapacity: true)
            unplaced = 0
        }

        /// The slot of `group`, which the process gets if it has none (letting idle scene groups go first when it
        /// has ``ExportLayout/liveGroupLimit``).
        mutating func slot(of group: Group) -> Int {
            if let fixed = group.fixedSlot { return fixedSlot(fixed) }
            switch group {
            case let .scene(name): return sceneSlot(name, states: false, service: false)
            case let .sceneState(name): return sceneSlot(name, states: true, service: false)
            case let .service(name): return sceneSlot(name, states: false, service: true)
            case let .serviceState(name): return sceneSlot(name, states: true, service: true)
            default: preconditionFailure("only a scene's or a service's group is found by its name")
            }
        }

        /// The fixed slot `fixed` (``Group/fixedSlot``), counted as live from its first use.
        mutating func fixedSlot(_ fixed: Int) -> Int {
            if !fixedUsed[fixed] {
                if liveGroups >= ExportLayout.liveGroupLimit { letIdleScenesGo() }
                fixedUsed[fixed] = true
                liveGroups += 1
            }
            return fixed
        }

        /// The slot of the group of `scene`'s callbacks, or of its `states`: a service's (`service NAME`) if
        /// `service` asks for one or a service event gave the name. Found again with no hashing while events and
        /// stretches go to the same scene.
        @inline(__always)
        mutating func sceneSlot(_ name: String, states: Bool, service: Bool) -> Int {
            // A group keeps its scene's name for the whole export: a name of megabytes is kept bounded
            // (``KeptName``), so that memory is per scene, not per byte of the names a trace holds.
            let scene = name.utf8.count > KeptName.limit ? KeptName.bounded(name) : name
            if !(hasLastScene && lastScene == scene) {
                guard hasPreviousScene, previousScene == scene else {
                    return lookUpSceneSlot(scene, states: states, service: service)
                }
                // The scene before the last becomes the last.
                swap(&lastScene, &previousScene)
                swap(&lastSceneSlots, &previousSceneSlots)
            }
            let found = states ? lastSceneSlots.states : lastSceneSlots.callbacks
            if found >= 0 { return found }
            return addGroup(of: scene, to: lastSceneSlots, states: states, service: service)
        }

        /// ``sceneSlot(_:states:service:)`` past the scene looked up last: by hashing, or a new group.
        private mutating func lookUpSceneSlot(_ scene: String, states: Bool, service: Bool) -> Int {
            let slots = sceneSlots[scene] ?? SceneSlots()
            let found = states ? slots.states : slots.callbacks
            guard found >= 0 else { return addGroup(of: scene, to: slots, states: states, service: service) }
            remember(scene, slots)
            return found
        }

        /// Gives `scene`, whose slots are `slots`, the group of its callbacks or its `states`, in a free slot or a
        /// new one, letting idle scene groups go first if there are too many.
        private mutating func addGroup(of scene: String, to slots: SceneSlots, states: Bool, service: Bool) -> Int {
            var slots = slots
            if liveGroups >= ExportLayout.liveGroupLimit {
                letIdleScenesGo()
                slots = sceneSlots[scene] ?? SceneSlots()
            }
            // A name a service event gave is a service's, whatever lane (a finding's, a marker's) asks first.
            let named: Group =
                service || services.contains(scene)
                ? states ? .serviceState(scene) : .service(scene)
                : states ? .sceneState(scene) : .scene(scene)
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
                groups[slot].reset(group: named)
            } else {
                slot = groups.count
                groups.append(GroupTracks(group: named))
            }
            if states { slots.states = slot } else { slots.callbacks = slot }
            sceneSlots[scene] = slots
            liveGroups += 1
            remember(scene, slots)
            return slot
        }

        /// Keeps `scene` and its slots as the scene looked up last, the one before it as the previous.
        private mutating func remember(_ scene: String, _ slots: SceneSlots) {
            if !hasLastScene || lastScene != scene {
                if hasLastScene {
                    swap(&previousScene, &lastScene)
                    previousSceneSlots = lastSceneSlots
                    hasPreviousScene = true
                }
                lastScene = scene
            }
            lastSceneSlots = slots
            hasLastScene = true
        }

        /// Lets go of the scenes' groups with nothing open.
        private mutating func letIdleScenesGo() {
            for (scene, slots) in sceneSlots {
                var kept = slots
                for slot in [slots.callbacks, slots.states] where slot >= 0 && !groups[slot].lanes.hasReservations {
                    groups[slot].reset(group: groups[slot].group)
                    freeSlots.append(slot)
                    liveGroups -= 1
                    if slot == slots.callbacks { kept.callbacks = -1 } else { kept.states = -1 }
                }
                sceneSlots[scene] = kept.callbacks < 0 && kept.states < 0 ? nil : kept
            }
            hasLastScene = false
            hasPreviousScene = false
        }
    }

    /// The slots of a scene's two groups in ``ProcessTracks/groups``; -1: the scene has no such group (yet).
    struct SceneSlots {
        var callbacks = -1
        var states = -1
    }
}
