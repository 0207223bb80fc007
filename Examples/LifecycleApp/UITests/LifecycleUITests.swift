import LifetraceAnalysis
import LifetraceTesting
import XCTest

/// Launches the app with a trace path, sends it to the background and back, terminates it, and asserts on the
/// trace it wrote: the UI-test recipe of docs/recorder.md.
final class LifecycleUITests: XCTestCase {
    /// A path on the Mac both the app and this test can reach: the simulator shares the host's file system
    /// (`SIMULATOR_HOST_HOME`, as fastlane snapshot uses it).
    func hostPath(_ name: String) throws -> String {
        let home = try XCTUnwrap(ProcessInfo.processInfo.environment["SIMULATOR_HOST_HOME"])
        let directory = "\(home)/Library/Caches/lifetrace-ui-tests"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/\(name).lifetrace"
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    @MainActor
    func drive(_ app: XCUIApplication) {
        app.launch()
        XCTAssertTrue(app.staticTexts["title"].waitForExistence(timeout: 10))
        XCUIDevice.shared.press(.home)          // resign, background: written before the observers return
        app.activate()                           // foreground, active
        XCTAssertTrue(app.staticTexts["title"].waitForExistence(timeout: 10))
        XCUIDevice.shared.press(.home)
        app.terminate()
    }

    @MainActor
    func testBackgroundAndReturnChecksClean() throws {
        let path = try hostPath("testBackgroundAndReturnChecksClean")
        let app = XCUIApplication()
        app.launchEnvironment["LIFETRACE_PATH"] = path
        app.launchEnvironment["LIFETRACE_TEST_NAME"] = name
        drive(app)
        let trace = try LifecycleTrace(contentsOf: URL(fileURLWithPath: path))
        XCTAssertNoLifecycleErrors(trace)
        XCTAssertGreaterThan(trace.time.background, 0)
        XCTAssertGreaterThan(trace.time.active, 0)
        XCTAssertEqual(trace.events.filter { $0.kind == .sceneDidEnterBackground }.count, 2)
    }

    /// A relative path lands in the app's Documents directory; scripts/collect-simulator-traces copies it out
    /// after the run and checks it with `lifetrace check`.
    @MainActor
    func testTraceInTheAppsContainer() throws {
        let app = XCUIApplication()
        app.launchEnvironment["LIFETRACE_PATH"] = "ui-tests/testTraceInTheAppsContainer.lifetrace"
        drive(app)
    }
}
