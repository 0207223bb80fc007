import LifetraceCore

/// Where slices and instants go: a process's groups of tracks, a track per lane, declared on first use.
extension ExportLayout {
    /// The group a callback of `layer` goes in: its scene's for a scene callback and a scene's SwiftUI phase,
    /// the app delegate's for the rest.
    static func callbackGroup(_ layer: EventLayer, scene: String?) -> Group {
        switch layer {
        case .scene: .scene(scene ?? "?")
        case .swiftui: scene.map(Group.scene) ?? .appDelegate
        default: .appDelegate
        }
    }

    /// The next uuid of a track, from 1.
    mutating func takeUUID() -> UInt64 {
        defer { nextUUID += 1 }
        return nextUUID
    }

    /// The next track's `tid`, from 1, across every process of the export.
    mutating func takeTID() -> Int32 {
        defer { nextTID += 1 }
        return nextTID
    }

    /// The slot of the group an event of `scene` goes in, `nil` naming the process's: the scene's callbacks' or
    /// its `states`' group (found with no group made), or the process's events' or states' group.
    @inline(__always)
    mutating func slot(scene: String?, states: Bool) -> Int {
        guard let scene else { return process.fixedSlot(states ? Group.stateSlot : Group.eventsSlot) }
        return process.sceneSlot(scene, states: states, service: false)
    }

    /// The slot of the group a callback of `layer` goes in (``callbackGroup(_:scene:)``), found with no group made.
    @inline(__always)
    mutating func callbackSlot(_ layer: EventLayer, scene: String?) -> Int {
        switch layer {
        case .scene: process.sceneSlot(scene ?? "?", states: false, service: false)
        case .swiftui where scene != nil: process.sceneSlot(scene!, states: false, service: false)
        default: process.fixedSlot(Group.appDelegateSlot)
        }
    }

    /// An instant on the first track of `group`, with `notes` if any.
    mutating func instant(
        _ name: ExportName, _ category: ExportCategory, in group: Group, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]? = nil
    ) {
        guard hasProcess else { return }
        instant(name, category, slot: prepare(group), at: t, arguments, notes: notes)
    }

    /// An instant on the first track of the group in `slot` of the running process, with `notes` if any.
    mutating func instant(
        _ name: ExportName, _ category: ExportCategory, slot: Int, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]? = nil
    ) {
        let track = track(lane: 0, slot: slot)
        if let notes {
            encoder.instant(on: track, name: name, category: category, at: t, arguments, notes: notes)
        } else {
            encoder.instant(on: track, name: name, category: category, at: t, arguments)
        }
        summary.instants += 1
    }

    /// The track of the lane a slice from `start` to `end` goes on in the group in `slot`; `nil` if every lane is
    /// taken.
    mutating func place(slot: Int, from start: Int64, to end: Int64) -> ExportTrack? {
        guard let lane = process.groups[slot].lanes.place(from: start, to: end) else { return nil }
        return track(lane: lane, slot: slot)
    }

    /// A lane of the group in `slot` held for a slice begun at `t` whose end comes later; `nil` if every lane is
    /// taken.
    mutating func reserve(slot: Int, at t: Int64) -> OpenSlice? {
        guard let lane = process.groups[slot].lanes.reserve(at: t) else { return nil }
        return OpenSlice(track: track(lane: lane, slot: slot), slot: slot, lane: lane, start: t)
    }

    /// A slice for which every lane of its track was taken (``SliceLanes/maximumLanes`` overlap there): an
    /// instant at its start on the track's first lane, its end (if known) an argument, counted in the summary.
    mutating func unplaced(
        _ name: ExportName, _ category: ExportCategory, slot: Int, at t: Int64, _ arguments: ExportArguments,
        end: Int64?
    ) {
        var arguments = arguments
        arguments.extras.append(.drawnAsInstant)
        if let end { arguments.extras.append(.endNanoseconds(end)) }
        instant(name, category, slot: slot, at: t, arguments)
        process.unplaced += 1
        summary.unplacedSlices += 1
    }

    /// Ends an open slice at `t` (not before it began) and frees its lane; `arguments` are told as a slice's end's.
    mutating func close(_ open: OpenSlice, at t: Int64, _ arguments: consuming ExportArguments) {
        let end = max(t, open.start)
        arguments.endsSlice = true
        encoder.end(on: open.track, at: end, arguments)
        process.groups[open.slot].lanes.release(open.lane, at: end)
        summary.slices += 1
    }

    /// `group`'s slot in the running process, which gets it if it has none (idle scene groups are let go first if
    /// there are too many): one lookup of the group for all the event needs of it.
    mutating func prepare(_ group: Group) -> Int {
        process.slot(of: group)
    }

    /// The `lane`-th track of the group in `slot` of the running process, declared on first use.
    @inline(__always)
    private mutating func track(lane: Int, slot: Int) -> ExportTrack {
        if lane < process.groups[slot].tracks.count { return process.groups[slot].tracks[lane] }
        return declareTracks(toLane: lane, slot: slot)
    }

    /// Declares the tracks of the group in `slot` up to its `lane`-th, and returns that one.
    @inline(never)
    private mutating func declareTracks(toLane lane: Int, slot: Int) -> ExportTrack {
        while process.groups[slot].tracks.count <= lane {
            let info = process.info
            let track = ExportTrack(uuid: takeUUID(), processUUID: info.uuid, pid: info.pid, tid: takeTID())
            encoder.declare(
                track, name: ExportTrackName(group: process.groups[slot].group, lane: process.groups[slot].tracks.count)
            )
            summary.tracks += 1
            process.groups[slot].tracks.append(track)
        }
        return process.groups[slot].tracks[lane]
    }
}
