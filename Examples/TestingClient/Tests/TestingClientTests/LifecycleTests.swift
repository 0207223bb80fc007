import Foundation
import LifetraceAnalysis
import LifetraceTesting
import Testing
import TestingClient

/// What an app's test target does with LifetraceTesting, with no libzstd on the machine.
@Suite(.serialized) struct LifecycleTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("testing-client-\(UUID().uuidString)")

    @Test func aCleanRunHasNoLifecycleErrors() throws {
        let trace = try LifecycleTrace(
            contentsOf: try LifecycleApp.run(into: directory.appendingPathComponent("clean.lifetrace")))
        trace.expectNoLifecycleErrors()
        #expect(trace.errors.isEmpty)
        #expect(trace.time.background > 0)
    }

    @Test func backgroundingWithoutResigningIsLT003() throws {
        let url = try LifecycleApp.run(into: directory.appendingPathComponent("illegal.lifetrace"), skipResign: true)
        let trace = try LifecycleTrace(contentsOf: url)
        #expect(trace.errors.map(\.rule.id) == [.backgroundWithoutResign])
        #expect(trace.errors.first?.message == "scene.didEnterBackground while scene is active")
        withKnownIssue {
            trace.expectNoLifecycleErrors()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "error LT003: sceneDidEnterBackground without sceneWillResignActive")
        }
    }
}
