extension ExportLayout {
    /// The lanes of one group of tracks and the tracks declared for them.
    struct GroupTracks {
        var group: Group
        var lanes = SliceLanes()
        var tracks: [ExportTrack] = []
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
        let info: ExportProcess
        var nextTID: Int32 = 1
        var groups: [GroupTracks] = Group.fixed.map { GroupTracks(group: $0) }
        /// Whether each fixed group has been used (it counts toward ``ExportLayout/liveGroupLimit`` from then).
        var fixedUsed = [Bool](repeating: false, count: Group.fixed.count)
        /// The slots of the scenes' groups: a scene's callbacks' and its states'.
        var sceneSlots: [Group: Int] = [:]
        /// The scene group looked up last and its slot: consecutive events often go to one group, found again
        /// with no hashing.
        var lastSceneGroup: (group: Group, slot: Int)?
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
            if let last = lastSceneGroup, last.group == group { return last.slot }
            if let slot = sceneSlots[group] {
                lastSceneGroup = (group, slot)
                return slot
            }
            if liveGroups >= ExportLayout.liveGroupLimit { letIdleScenesGo() }
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
                groups[slot] = GroupTracks(group: group)
            } else {
                slot = groups.count
                groups.append(GroupTracks(group: group))
            }
            sceneSlots[group] = slot
            liveGroups += 1
            lastSceneGroup = (group, slot)
            return slot
        }

        /// Lets go of the scenes' groups with nothing open.
        private mutating func letIdleScenesGo() {
            for (group, slot) in sceneSlots where !groups[slot].lanes.hasReservations {
                sceneSlots[group] = nil
                groups[slot] = GroupTracks(group: group)
                freeSlots.append(slot)
                liveGroups -= 1
            }
            lastSceneGroup = nil
        }
    }
}
