import Testing

@testable import LifetraceReport

/// A Chrome JSON event's place on its track, spelled once per track and kept in a slot by its tid.
@Suite struct ChromeTrackPlacesTests {
    private func text(_ track: ExportTrack, in places: inout ChromeTrackPlaces) -> String {
        let place = places.place(of: track)
        return places.withPlaces { String(decoding: $0[place], as: UTF8.self) }
    }

    @Test func aTrackIsPlacedByItsPidAndTidAndTracksSharingASlotTakeItInTurn() {
        var places = ChromeTrackPlaces()
        let first = ExportTrack(uuid: 7, processUUID: 1, pid: 3, tid: 5)
        // tid 5 + 512: the same slot of 512.
        let sharing = ExportTrack(uuid: 8, processUUID: 2, pid: 41, tid: 5 + Int32(ChromeTrackPlaces.slotCount))
        #expect(text(first, in: &places) == #""pid":3,"tid":5"#)
        #expect(text(sharing, in: &places) == #""pid":41,"tid":517"#)
        #expect(text(first, in: &places) == #""pid":3,"tid":5"#)
        let wide = ExportTrack(uuid: 9, processUUID: 3, pid: Int32.max, tid: Int32.max)
        #expect(text(wide, in: &places) == #""pid":2147483647,"tid":2147483647"#)
    }
}
