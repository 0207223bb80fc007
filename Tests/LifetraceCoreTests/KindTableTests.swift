import LifetraceCore
import Testing

/// A table by kind reads, for every tag, the entry it was made with at that position: the first, the last and
/// every one between, with no entry shifted or shared.
@Suite struct KindTableTests {
    @Test func everyTagReadsTheEntryAtItsPosition() {
        let table = KindTable((0..<256).map { 1_000 - $0 })
        for tag in UInt8.min...UInt8.max {
            #expect(table[tag] == 1_000 - Int(tag))
        }
    }

    /// Made from each tag's kind (``EventKind/byTag``): a tag of the vocabulary gets its kind, every other tag
    /// `nil` (`Schemas/events.json` gives `scene.didBecomeActive` tag 18 and `custom` 127; EventKindRulesTests
    /// checks every tag against it).
    @Test func aTableMadeByKindHasEachTagsKind() {
        let table = KindTable(EventKind.byTag)
        #expect(table[0] == nil)
        #expect(table[18] == .sceneDidBecomeActive)
        #expect(table[127] == .custom)
        #expect(table[255] == nil)
        for kind in EventKind.allCases { #expect(table[kind.rawValue] == kind) }
        #expect((UInt8.min...UInt8.max).filter { table[$0] != nil }.count == EventKind.allCases.count)
    }
}
