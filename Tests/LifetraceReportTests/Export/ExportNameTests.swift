import LifetraceAnalysis
import LifetraceCore
@testable import LifetraceReport
import Testing

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
}
