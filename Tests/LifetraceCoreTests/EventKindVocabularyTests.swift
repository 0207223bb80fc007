import Foundation
import LifetraceCore
import Testing

/// The generated vocabulary must say exactly what `Schemas/events.json` says.
@Suite struct EventKindVocabularyTests {
    struct SchemaEvent: Decodable, Sendable {
        var name: String
        var tag: UInt8
        var layer: String
        var required: [String]
    }

    struct SchemaField: Decodable, Sendable {
        var name: String
        var bit: Int
    }

    struct Schema: Decodable, Sendable {
        var events: [SchemaEvent]
        var fields: [SchemaField]
    }

    static let schema: Schema = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Schemas/events.json")
        return try! JSONDecoder().decode(Schema.self, from: Data(contentsOf: url))
    }()

    @Test func everySchemaEventHasAKindWithTheSameTagLayerAndRequiredFields() throws {
        #expect(Self.schema.events.count == EventKind.allCases.count)
        for entry in Self.schema.events {
            let kind = try #require(EventKind(rawValue: entry.tag), "no kind for tag \(entry.tag)")
            #expect(kind.name == entry.name)
            #expect(kind.layer.rawValue == entry.layer)
            #expect(Set(kind.requiredFields.names) == Set(entry.required), "\(entry.name)")
        }
    }

    /// Every name the schema gives is read back, from its bytes, as its kind; `custom` alone, a prefix and a
    /// name of another case are no kind.
    @Test func everyNameIsReadBackFromItsBytes() {
        for entry in Self.schema.events where entry.name != "custom" {
            #expect(LifecycleEvent.parseName(entry.name).map { $0.kind.rawValue } == entry.tag, "\(entry.name)")
        }
        #expect(LifecycleEvent.parseName("custom") == nil)
        #expect(LifecycleEvent.parseName("scene.didBecome") == nil)
        #expect(LifecycleEvent.parseName("Scene.didBecomeActive") == nil)
        #expect(LifecycleEvent.parseName("custom.save")?.label == "save")
        #expect(LifecycleEvent.parseName("custom.é")?.label == "é")
    }

    @Test func fieldBitsMatchTheSchema() {
        for field in Self.schema.fields {
            #expect(EventFields(rawValue: 1 << field.bit).names == [field.name])
        }
        #expect(EventFields.all.names.count == Self.schema.fields.count)
    }

    @Test(arguments: EventKind.allCases.filter { $0 != .custom })
    func nameLooksTheKindUp(kind: EventKind) {
        #expect(EventKind(name: kind.name) == kind)
    }

    @Test func customIsNotMatchedByName() {
        #expect(EventKind(name: "custom") == nil)
        #expect(EventKind(name: "custom.saved") == nil)
        #expect(EventKind(name: "scene.didSomething") == nil)
    }

    /// Apple, “Managing your app’s life cycle”: the four scene delegate methods that replace the app delegate's UI callbacks.
    @Test func sceneCallbacksRequireAScene() {
        for kind in [
            EventKind.sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
            .sceneDidEnterBackground, .sceneWillConnect, .sceneDidDisconnect,
        ] {
            #expect(kind.requiredFields.contains(.scene))
            #expect(kind.layer == .scene)
        }
    }
}
