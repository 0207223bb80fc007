import Foundation
import LifetraceTestSupport
import Testing

/// The demo (Examples/LiveCheckDemo) run as a process in each scenario: what it prints and when, read from the
/// times its lines carry (its own clock since it started), and bounded generously by the test's clock.
@Suite(.integration, .serialized) struct LiveCheckDemoTests {
    struct Line {
        var seconds: Double
        var text: String
    }

    struct Run {
        var status: Int32
        var lines: [Line]
        var elapsed: Duration

        func first(_ fragment: String) -> Line? {
            lines.first { $0.text.contains(fragment) }
        }
    }

    /// The built demo: beside the test bundle in the build directory, or in `.build/debug`.
    static let executable: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("LiveCheckDemo").path
        return FileManager.default.isExecutableFile(atPath: beside)
            ? beside : PackagePaths.path(".build/debug/LiveCheckDemo")
    }()

    static func demo(_ scenario: String) throws -> Run {
        let started = ContinuousClock.now
        let result = try run(Self.executable, [scenario])
        let elapsed = ContinuousClock.now - started
        // Each line: `[  1.234s] text`.
        let lines = result.stderr.split(separator: "\n").compactMap { raw -> Line? in
            guard raw.hasPrefix("["), let close = raw.firstIndex(of: "]") else { return nil }
            let number = String(raw[raw.index(after: raw.startIndex)..<close]).trimmingCharacters(in: .whitespaces)
            guard number.hasSuffix("s"), let seconds = Double(number.dropLast()) else { return nil }
            return Line(seconds: seconds, text: String(raw[raw.index(after: close)...]))
        }
        #expect(
            lines.count == result.stderr.split(separator: "\n").count, "every line carries its time: \(result.stderr)")
        return Run(status: result.status, lines: lines, elapsed: elapsed)
    }

    @Test func legalFindsNothingAndExitsZero() throws {
        let run = try Self.demo("legal")
        #expect(run.status == 0)
        #expect(!run.lines.contains { $0.text.contains("live check:") }, "\(run.lines.map(\.text))")
        #expect(run.first("done: 0 findings") != nil)
    }

    @Test func illegalIsPrintedWithin100msOfTheViolationBeforeTheDemoEnds() throws {
        let run = try Self.demo("illegal")
        #expect(run.status == 1)
        let violation = try #require(run.first("posting UISceneDidActivateNotification from the background"))
        let finding = try #require(run.first("lifetrace live check:"))
        #expect(finding.text.contains("scene.didBecomeActive"))
        #expect(finding.text.contains(" LT0"))
        #expect(finding.seconds >= violation.seconds)
        #expect(finding.seconds - violation.seconds < 0.1, "\(finding.seconds - violation.seconds) s")
        // Printed during the two seconds of life after it, not at the end.
        let end = try #require(run.first("done: 1 finding"))
        #expect(end.seconds - finding.seconds > 1.5)
        #expect(run.lines.filter { $0.text.contains("lifetrace live check:") }.count == 1)
        #expect(run.elapsed > .seconds(2))
    }

    @Test func overrunIsLT050BetweenFiveAndFiveAndAHalfSecondsIntoTheHandlerWhileItRuns() throws {
        let run = try Self.demo("overrun")
        #expect(run.status == 1)
        let began = try #require(run.first("sceneDidEnterBackground handler begins"))
        let finding = try #require(run.first("LT050"))
        let returned = try #require(run.first("sceneDidEnterBackground handler returned"))
        let late = finding.seconds - began.seconds
        #expect(late >= 5.0 && late <= 5.5, "\(late) s after the handler began")
        #expect(finding.seconds < returned.seconds, "while the handler still runs")
        #expect(returned.seconds - began.seconds >= 7.0)
        #expect(run.lines.filter { $0.text.contains("LT050") }.count == 1)
        #expect(run.elapsed > .seconds(7))
    }
}
