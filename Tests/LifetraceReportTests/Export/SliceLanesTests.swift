import Testing

@testable import LifetraceReport

/// Slices go where they nest: a viewer drops a slice that begins inside another and ends after it.
@Suite struct SliceLanesTests {
    @Test func nestedAndAdjacentSlicesShareALane() {
        var lanes = SliceLanes()
        #expect(lanes.place(from: 0, to: 10) == 0)
        #expect(lanes.place(from: 2, to: 5) == 0)  // inside [0, 10]
        #expect(lanes.place(from: 5, to: 10) == 0)  // after [2, 5], ending with its parent
        #expect(lanes.place(from: 10, to: 20) == 0)  // adjacent: [0, 10] is over at 10
        #expect(lanes.place(from: 20, to: 20) == 0)  // zero length
        #expect(lanes.place(from: 20, to: 25) == 0)
        #expect(lanes.count == 1)
    }

    @Test func aSliceThatOverlapsWithoutNestingTakesTheNextLane() {
        var lanes = SliceLanes()
        #expect(lanes.place(from: 0, to: 10) == 0)
        #expect(lanes.place(from: 5, to: 15) == 1)  // ends after [0, 10]
        #expect(lanes.place(from: 12, to: 14) == 0)  // lane 0 is free again at 12, and it is first
        #expect(lanes.place(from: 13, to: 16) == 2)  // lane 0 holds [12, 14], lane 1 [5, 15]: neither can
        #expect(lanes.count == 3)
    }

    @Test func aSliceThatStartsBeforeALanesLastStartGoesElsewhere() {
        var lanes = SliceLanes()
        #expect(lanes.place(from: 10, to: 20) == 0)
        #expect(lanes.place(from: 5, to: 6) == 1)
        #expect(lanes.place(from: 20, to: 30) == 0)
    }

    @Test func aReservedLaneTakesNothingUntilReleased() {
        var lanes = SliceLanes()
        #expect(lanes.reserve(at: 0) == 0)
        #expect(lanes.place(from: 1, to: 2) == 1)
        #expect(lanes.reserve(at: 1) == 2)  // lane 1 holds [1, 2] at 1
        #expect(lanes.hasReservations)
        lanes.release(0, at: 5)
        #expect(lanes.place(from: 3, to: 4) == 0)  // inside the released [0, 5]
        #expect(lanes.place(from: 5, to: 9) == 0)
        lanes.release(2, at: 8)
        #expect(!lanes.hasReservations)
        #expect(lanes.reserve(at: 9) == 0)  // [5, 9] is over at 9
    }

    @Test func aLaneIsAtMostMaximumDepthDeep() {
        var lanes = SliceLanes()
        for depth in 0..<SliceLanes.maximumDepth {
            #expect(lanes.place(from: Int64(depth), to: 1000 - Int64(depth)) == 0)
        }
        #expect(lanes.place(from: 100, to: 101) == 1)
    }
}
