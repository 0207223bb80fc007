import ArgumentParser
import LifetraceAnalysis

/// `lifetrace rules`: the catalogue.
struct Rules: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the lifecycle rules lifetrace checks.")

    func run(on console: Console) throws {
        var out = StandardOutput(console)
        for rule in RuleCatalog.all {
            try out.line("\(rule.id)  \(rule.severity.rawValue.padding(8))\(rule.title)")
        }
        try out.flush()
    }
}

/// `lifetrace explain LT003`: one rule in full.
struct Explain: ConsoleCommand {
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

    func run(on console: Console) throws {
        let rule = RuleCatalog.rule(RuleID(rawValue: rule))!
        var out = StandardOutput(console)
        try out.line("\(rule.id) (\(rule.severity.rawValue)): \(rule.title)")
        // The title as each platform's callbacks name it, where it differs.
        for family in CallbackFamily.allCases where rule.title(for: family) != rule.title {
            try out.line("  (\(family.rawValue): \(rule.title(for: family)))")
        }
        try out.line()
        try out.line(rule.explanation)
        try out.line()
        try out.line("Fix: " + rule.fix)
        try out.line()
        try out.line("Source: " + rule.source)
        try out.flush()
    }
}
