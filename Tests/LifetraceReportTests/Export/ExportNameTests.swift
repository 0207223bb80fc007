import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceReport

/// The numbers that stand for names in an export: event kinds' tags, then states' recorded and inferred names,
/// then how a process ended, all below the size of the tables the encoders keep by number.
@Suite struct ExportNameTests {
    @Test func everyNumberedNameFitsTheEncodersTables() {
        // An event kind's number is its tag, a byte.
        #expect(ExportName.firstStateKey == Int(UInt8.max) + 1)
        #expect(ExportName.firstProcessEndKey == ExportName.firstStateKey + 2 * TimelineState.allCases.count)
        #expect(ExportName.firstProcessEndKey + ProcessEnd.allCases.count <= ExportName.keyCount)
        for kind in EventKind.allCases {
            #expect(ExportName(kind).key == Int(kind.rawValue))
        }
    }

    /// The encoding thread's own copy of a name has the same text and number: a kind's, a state's, a marker's.
    @Test func aNamesOwnCopyIsTheSameName() {
        let names = [
            ExportName(.sceneDidBecomeActive), ExportName(.custom),
            ExportName("background (inferred)", key: ExportName.firstStateKey + 5),
            ExportName("custom.a label longer than a small string", key: ExportName.keyCount + 3),
            ExportName("finding name", key: -1),
        ]
        for name in names {
            let copy = name.ownCopy()
            #expect(copy.text == name.text)
            #expect(copy.key == name.key)
        }
        #expect(ExportName(.sceneDidBecomeActive).ownCopy().text == "scene.didBecomeActive")
    }
}
