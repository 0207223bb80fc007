import Testing

@testable import LifetraceAnalysis

/// Rule ids are declared once, as ``RuleID`` constants: each constant is a rule of the catalogue, and each rule
/// the catalogue declares is named by a constant (the built-in models' own rules stay theirs, declared in their
/// JSON).
@Suite struct RuleIDTests {
    @Test func everyConstantIsARuleOfTheCatalogue() {
        for id in RuleID.catalogued {
            #expect(RuleCatalog.rule(id) != nil, "\(id) is a constant with no rule in the catalogue")
        }
    }

    @Test func everyRuleTheCatalogueDeclaresIsAConstant() {
        let constants = Set(RuleID.catalogued)
        for rule in RuleCatalog.declared {
            #expect(constants.contains(rule.id), "\(rule.id) is declared in the catalogue but is not a constant")
        }
    }

    @Test func aRuleNotDeclaredInTheCatalogueIsABuiltInModelsOwn() {
        let modelOwn = Set(LifecycleModel.builtIn.flatMap(\.rules).map(\.id))
        let declared = Set(RuleCatalog.declared.map(\.id))
        for rule in RuleCatalog.all where !declared.contains(rule.id) {
            #expect(modelOwn.contains(rule.id), "\(rule.id) comes from neither the catalogue nor a built-in model")
        }
    }

    @Test func theConstantsAreListedOnceInIdOrder() {
        let ids = RuleID.catalogued.map(\.rawValue)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 5 && $0.hasPrefix("LT") && $0.dropFirst(2).allSatisfy(\.isNumber) })
    }

    /// Spot checks against the rule catalogue page (docs/rules.md): a constant names the rule its name says.
    @Test func aConstantNamesTheRuleOfItsName() {
        #expect(RuleCatalog.rule(.taskLeaked)?.title == "background task leaked")
        #expect(
            RuleCatalog.rule(.backgroundWithoutResign)?.title == "sceneDidEnterBackground without sceneWillResignActive"
        )
        #expect(RuleCatalog.rule(.shutdownOverGrace)?.title == "service shutdown over its grace period")
        #expect(RuleCatalog.rule(.serviceEndedUnasked)?.title == "service ended before a shutdown was asked")
    }
}
