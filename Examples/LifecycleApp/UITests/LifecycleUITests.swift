import LifetraceAnalysis
import LifetraceCore
import LifetraceTesting
import XCTest

/// Launches the app with a trace path, sends it to the background and back, terminates it once it is in the
/// background, and asserts on the trace it wrote from UIKit's real notifications: the UI-test recipe of
/// docs/recorder.md.
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

    /// Launches the app, sends it to the background, back, and to the background again, then terminates it once
    /// it is in the background and, when the test can read the trace (`path`), once the trace shows both trips:
    /// the recorder queues its write when the app enters the background, and `terminate()` kills the process.
    @MainActor
    func drive(_ app: XCUIApplication, path: String? = nil) {
        app.launch()
        XCTAssertTrue(app.staticTexts["title"].waitForExistence(timeout: 10))
        XCUIDevice.shared.press(.home)  // resign, background: each write queued as its observer returns
        XCTAssertTrue(waitForBackground(app))
        app.activate()  // foreground, active
        XCTAssertTrue(app.staticTexts["title"].waitForExistence(timeout: 10))
        XCUIDevice.shared.press(.home)
        XCTAssertTrue(waitForBackground(app))
        if let path { XCTAssertTrue(waitForTrace(at: path, backgroundEntries: 2)) }
        app.terminate()
    }

    /// Waits until the app runs in the background (or is suspended there already).
    @MainActor
    func waitForBackground(_ app: XCUIApplication) -> Bool {
        app.wait(for: .runningBackground, timeout: 10) || app.state == .runningBackgroundSuspended
    }

    /// Waits until the trace at `path` (not closed yet: the app is running) holds `count` scene background entries.
    func waitForTrace(at path: String, backgroundEntries count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let trace = try? LifecycleTrace(contentsOf: URL(fileURLWithPath: path)),
                trace.events.filter({ $0.kind == .sceneDidEnterBackground }).count >= count
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return false
    }

    @MainActor
    func testBackgroundAndReturnChecksClean() throws {
        let path = try hostPath("testBackgroundAndReturnChecksClean")
        let app = XCUIApplication()
        app.launchEnvironment["LIFETRACE_PATH"] = path
        app.launchEnvironment["LIFETRACE_TEST_NAME"] = name
        drive(app, path: path)
        let trace = try LifecycleTrace(contentsOf: URL(fileURLWithPath: path))
        XCTAssertNoLifecycleErrors(trace)
        XCTAssertGreaterThan(trace.time.active, 0)
        // Both trips, each from UIKit's real notifications, in a header that says so.
        XCTAssertEqual(trace.events.filter { $0.kind == .sceneDidEnterBackground }.count, 2)
        XCTAssertEqual(trace.events.filter { $0.kind == .sceneWillResignActive }.count, 2)
        XCTAssertEqual(trace.events.filter { $0.kind == .sceneDidBecomeActive }.count, 2)
        XCTAssertEqual(trace.analysis.header?.captureMethod, .notifications)
        // Every notification UIKit posts on this path arrived under the name the recorder observes: a misspelt
        // name would leave its event out here, where UIKit posts for real.
        let expected: [EventKind] = [
            .appDidFinishLaunching, .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
            .appDidBecomeActive, .sceneWillResignActive, .appWillResignActive, .sceneDidEnterBackground,
            .appDidEnterBackground, .appWillEnterForeground,
        ]
        let recorded = Set(trace.events.map(\.kind))
        for kind in expected {
            XCTAssertTrue(recorded.contains(kind), "no \(kind.name) in the trace")
        }
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
