import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// Each rule is declared once, in `Schemas/rules.json`; its ``RuleID`` constant and its ``Rule`` are generated
/// from that one declaration, and the built-in models name rules by id only.
@Suite struct RuleDeclarationTests {
    @Test func theConstantsAreTheCataloguesRulesInIdOrderOnce() {
        let ids = RuleID.catalogued.map(\.rawValue)
        #expect(RuleID.catalogued == RuleCatalog.all.map(\.id))
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 5 && $0.hasPrefix("LT") && $0.dropFirst(2).allSatisfy(\.isNumber) })
    }

    @Test func theBuiltInModelsDeclareNoRuleAndNameOnlyTheCataloguesOwn() {
        let catalogued = Set(RuleID.catalogued)
        for model in LifecycleModel.builtIn {
            #expect(model.rules.isEmpty, "\(model.name) declares rules of its own")
            let named =
                model.transitions.compactMap(\.rule) + model.violations.map(\.rule) + model.handlerBudgets.map(\.rule)
                + model.stateBudgets.values.map(\.rule)
            for id in named { #expect(catalogued.contains(id), "\(model.name) names \(id)") }
        }
    }

    /// A rule checked in code on events declares its check, and only such a rule has one.
    @Test func aRuleHasACheckInCodeExactlyWhenTheAnalyzerDispatchesItOnEvents() {
        let dispatched: Set<RuleID> = [
            .terminateFromForeground, .appDelegateUIWithManifest, .appNotificationAgainstScenes, .appPhaseAgainstScenes,
            .saveOnlyInTerminate,
        ]
        for rule in RuleCatalog.all {
            #expect((rule.code != nil) == dispatched.contains(rule.id), "\(rule.id)")
        }
    }

    /// Spot checks against the rule catalogue page (docs/rules.md): a constant names the rule its name says, the
    /// model-checked ones among them.
    @Test func aConstantNamesTheRuleOfItsName() {
        #expect(RuleCatalog.rule(.taskLeaked)?.title == "background task leaked")
        #expect(
            RuleCatalog.rule(.backgroundWithoutResign)?.title == "sceneDidEnterBackground without sceneWillResignActive"
        )
        #expect(RuleCatalog.rule(.shutdownOverGrace)?.title == "service shutdown over its grace period")
        #expect(RuleCatalog.rule(.serviceEndedUnasked)?.title == "service ended before a shutdown was asked")
        #expect(RuleCatalog.rule(.iOSCallbackInMacApp)?.title == "background or scene callback in a macOS app")
        #expect(RuleCatalog.rule(.serviceEventOutOfOrder)?.title == "service lifecycle event out of order")
    }
}
