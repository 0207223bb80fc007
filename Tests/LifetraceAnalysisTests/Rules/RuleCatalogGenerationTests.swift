import Foundation
import LifetraceTestSupport
import Testing

/// Adding a rule is one declaration: in a scratch copy of the package's schemas, a rule added to
/// `Schemas/rules.json` comes out of `scripts/gen-vocabulary` as its `RuleID` constant, in the id list, and as a
/// `Rule` with its texts, its events, its scope and its check; the built-in models may name it. A declaration the
/// generator cannot use, or a model naming a rule no declaration has, stops it with the rule named.
@Suite(.integration) struct RuleCatalogGenerationTests {
    /// A scratch copy of what the generator reads and writes: Schemas/ and the script, with the folders of its
    /// outputs.
    static func scratchCopy() throws -> TemporaryDirectory {
        let scratch = TemporaryDirectory()
        let files = FileManager.default
        try files.copyItem(atPath: PackagePaths.path("Schemas"), toPath: scratch.file("Schemas"))
        try files.createDirectory(atPath: scratch.file("scripts"), withIntermediateDirectories: true)
        try files.copyItem(
            atPath: PackagePaths.path("scripts/gen-vocabulary"), toPath: scratch.file("scripts/gen-vocabulary"))
        for folder in ["Sources/LifetraceCore", "Sources/LifetraceAnalysis/Models", "Sources/LifetraceAnalysis/Rules"] {
            try files.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
        }
        return scratch
    }

    /// The scratch copy's rule catalogue with `rule` added after the others.
    static func add(_ rule: String, to scratch: TemporaryDirectory) throws {
        let path = scratch.file("Schemas/rules.json")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let end = try #require(text.range(of: "\n  ]\n}", options: .backwards))
        text.replaceSubrange(end, with: ",\n" + rule + "\n  ]\n}")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func generate(in scratch: TemporaryDirectory) throws -> ShellResult {
        try run("/usr/bin/env", ["python3", scratch.file("scripts/gen-vocabulary")])
    }

    static let added = """
            {
              "id": "LT099", "name": "heartbeatInAppKit", "summary": "a heartbeat in an AppKit app.",
              "severity": "warning", "title": "heartbeat in a macOS app", "checked_by": "code",
              "events": ["heartbeat"], "check": "heartbeatInAppKit", "applies": {"lifecycles": ["appkit"]},
              "source": "Apple, “NSApplication”", "explanation": "A heartbeat.", "fix": "None."
            }
        """

    @Test func aRuleAddedToTheCatalogueIsGeneratedWithEverythingItDeclares() throws {
        let scratch = try Self.scratchCopy()
        try Self.add(Self.added, to: scratch)
        let result = try Self.generate(in: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let swift = try String(
            contentsOfFile: scratch.file("Sources/LifetraceAnalysis/Rules/RuleCatalog+Generated.swift"), encoding: .utf8
        )
        #expect(swift.contains("/// LT099: a heartbeat in an AppKit app.\n"))
        #expect(swift.contains(#"public static let heartbeatInAppKit = RuleID(rawValue: "LT099")"#))
        #expect(swift.contains("        .serviceShutdownOutOfOrder,\n        .heartbeatInAppKit,\n    ]"))
        #expect(swift.contains("id: .heartbeatInAppKit, severity: .warning,"))
        #expect(swift.contains(##"title: #"heartbeat in a macOS app"#,"##))
        #expect(
            swift.contains(
                "check: .events([.heartbeat]), scope: Rule.Scope(lifecycles: [.appkit]), "
                    + "code: { $0.heartbeatInAppKit($1, row: $2, of: $3) }),"))
    }

    @Test func aDeclarationTheGeneratorCannotUseIsRefusedWithItsRuleNamed() throws {
        for (broken, message) in [
            (
                Self.added.replacingOccurrences(of: #""LT099""#, with: #""LT097""#),
                "LT097: its id or name is declared twice"
            ),
            (
                Self.added.replacingOccurrences(of: #"["heartbeat"]"#, with: #"["heartbeats"]"#),
                "heartbeats is not an event"
            ),
            (
                Self.added.replacingOccurrences(of: #""check": "heartbeatInAppKit", "#, with: ""),
                "names its events and its check"
            ),
            (Self.added.replacingOccurrences(of: #""appkit""#, with: #""android""#), "lifecycles are"),
        ] {
            let scratch = try Self.scratchCopy()
            try Self.add(broken, to: scratch)
            let result = try Self.generate(in: scratch)
            #expect(result.status == 1 && result.stderr.contains(message), "\(message): \(result.stderr)")
        }
    }

    @Test func aModelNamingARuleNoDeclarationHasIsRefused() throws {
        let scratch = try Self.scratchCopy()
        let path = scratch.file("Schemas/models/scene.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""rule": "LT001""#, with: #""rule": "LT098""#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.generate(in: scratch)
        #expect(
            result.status == 1 && result.stderr.contains("rule LT098 is not in Schemas/rules.json"), "\(result.stderr)")
    }
}
