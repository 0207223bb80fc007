import ArgumentParser
import LifetraceAnalysis

/// `lifetrace rules`: the catalogue.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the lifecycle rules lifetrace checks.")

    func run() throws {
        var out = StandardOutput()
        for rule in RuleCatalog.all {
            out.line("\(rule.id)  \(rule.severity.rawValue.padding(8))\(rule.title)")
        }
        out.flush()
    }
}

/// `lifetrace explain LT003`: one rule in full.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one rule: what it checks, where it comes from, how to fix it.")

    @Argument(help: "The rule id, such as LT003.")
    var rule: String

    func validate() throws {
        guard RuleCatalog.rule(RuleID(rawValue: rule)) != nil else {
            throw ValidationError("no rule '\(rule)'; `lifetrace rules` lists them")
        }
    }

    func run() throws {
        let rule = RuleCatalog.rule(RuleID(rawValue: rule))!
        var out = StandardOutput()
        out.line("\(rule.id) (\(rule.severity.rawValue)): \(rule.title)")
        // The title as each platform's callbacks name it, where it differs.
        for family in CallbackFamily.allCases where rule.title(for: family) != rule.title {
            out.line("  (\(family.rawValue): \(rule.title(for: family)))")
        }
        out.line()
        out.line(rule.explanation)
        out.line()
        out.line("Fix: " + rule.fix)
        out.line()
        out.line("Source: " + rule.source)
        out.flush()
    }
}
