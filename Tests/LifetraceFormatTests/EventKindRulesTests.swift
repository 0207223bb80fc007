import Foundation
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceFormat

/// The block decoder's tables by tag say, for each of the 256 tags, what the vocabulary (`Schemas/events.json`)
/// and the format's specification say: the kind with that tag (none for a tag the vocabulary lacks), the fields
/// it requires, and a label forbidden to every kind but `custom` ("no other kind may carry a label").
@Suite struct EventKindRulesTests {
    struct Vocabulary: Decodable {
        struct Event: Decodable {
            var name: String
            var tag: UInt8
            var required: [String]
        }

        var events: [Event]
    }

    @Test func everyTagHasTheKindAndFieldsTheVocabularyGivesIt() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("Schemas/events.json")))
        let vocabulary = try JSONDecoder().decode(Vocabulary.self, from: data)
        let byTag = Dictionary(uniqueKeysWithValues: vocabulary.events.map { ($0.tag, $0) })
        let rules = EventKindRules.shared
        for tag in UInt8.min...UInt8.max {
            guard let event = byTag[tag] else {
                #expect(rules.kind(tag) == nil, "tag \(tag)")
                continue
            }
            #expect(rules.kind(tag)?.name == event.name, "tag \(tag)")
            #expect(Set(rules.rule(tag).required.names) == Set(event.required), "\(event.name)")
            #expect(rules.rule(tag).forbidden.names == (event.name == "custom" ? [] : ["label"]), "\(event.name)")
        }
    }

    /// `scene.didBecomeActive` requires a scene and may carry a duration, not a label.
    @Test func aRuleIsBrokenByALackingRequiredFieldOrAForbiddenOne() {
        let rule = EventKindRules.shared.rule(18)
        #expect(!rule.isBroken(by: .scene))
        #expect(!rule.isBroken(by: [.scene, .dur]))
        #expect(rule.isBroken(by: []))
        #expect(rule.isBroken(by: .dur))
        #expect(rule.isBroken(by: [.scene, .label]))
        let custom = EventKindRules.shared.rule(127)
        #expect(!custom.isBroken(by: .label))
        #expect(custom.isBroken(by: .scene))
    }
}
