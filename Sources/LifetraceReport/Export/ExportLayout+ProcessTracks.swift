import LifetraceAnalysis

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
        /// The scene looked up last and its slots: consecutive events and stretches often go to one scene's
        /// groups, found again with no hashing.
        var lastScene: (scene: String, slots: SceneSlots)?
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
            freeSlots.append(contentsOf: Group.fixed.count ..< groups.count)
            sceneSlots.removeAll(keepingCapacity: true)
            services.removeAll(keepingCapacity: true)
            serviceStates.removeAll(keepingCapacity: true)
            lastScene = nil
            liveGroups = 0
            openTasks.removeAll(keepingCapacity: true)
            unfinished.removeAll(keepingCapacity: true)
            unplaced = 0
        }

        /// The slot of `group`, which the process gets if it has none (letting idle scene groups go first when it
        /// has ``ExportLayout/liveGroupLimit``).
        mutating func slot(of group: Group) -> Int {
            if let fixed = group.fixedSlot {
                if !fixedUsed[fixed] {
                    if liveGroups >= ExportLayout.liveGroupLimit { letIdleScenesGo() }
                    fixedUsed[fixed] = true
                    liveGroups += 1
                }
                return fixed
            }
            let scene: String
            let states: Bool
            switch group {
            case let .scene(name), let .service(name): (scene, states) = (name, false)
            case let .sceneState(name), let .serviceState(name): (scene, states) = (name, true)
            default: preconditionFailure("only a scene's or a service's group is found by its name")
            }
            var slots: SceneSlots
            if let last = lastScene, last.scene == scene {
                slots = last.slots
            } else {
                slots = sceneSlots[scene] ?? SceneSlots()
            }
            let found = states ? slots.states : slots.callbacks
            if found >= 0 {
                lastScene = (scene, slots)
                return found
            }
            if liveGroups >= ExportLayout.liveGroupLimit {
                letIdleScenesGo()
                slots = sceneSlots[scene] ?? SceneSlots()
            }
            // A name a service event gave is a service's, whatever lane (a finding's, a marker's) asks first.
            let named = services.isEmpty || !services.contains(scene)
                ? group : states ? Group.serviceState(scene) : Group.service(scene)
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
            lastScene = (scene, slots)
            return slot
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
            lastScene = nil
        }
    }

    /// The slots of a scene's two groups in ``ProcessTracks/groups``; -1: the scene has no such group (yet).
    struct SceneSlots {
        var callbacks = -1
        var states = -1
    }
}
