// The live check on a UIKit scene-based app's life, played through the notifications UIKit posts and a measured
// callback, recorded by the recorder an app links, with the findings printed to standard error the moment the
// check makes them. Every line carries the time since the demo started, so the order can be read.
//
// Usage: LiveCheckDemo legal | illegal | overrun
//   legal    a launch, a trip to the background and back: no finding, exit 0
//   illegal  sceneDidBecomeActive from the background without sceneWillEnterForeground, then 2 s of normal life
//   overrun  a measured sceneDidEnterBackground handler that blocks for 7 s: LT050 while it still runs
// Exit status: 0 when the check found nothing, 1 when it found something, 2 on a usage error.
import Foundation
import LifetraceCore
import LifetraceLiveCheck
import LifetraceRecorder

let started = ContinuousClock.now

/// `[  1.234s] `: the time since the demo started.
@Sendable func stamp() -> String {
    let elapsed = ContinuousClock.now - started
    let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    let text = String(format: "%.3f", Double(ms) / 1000)
    return "[" + String(repeating: " ", count: max(0, 7 - text.count)) + text + "s] "
}

func say(_ line: String) {
    FileHandle.standardError.write(Data((stamp() + line + "\n").utf8))
}

guard CommandLine.arguments.count == 2, let scenario = Scenario(rawValue: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LiveCheckDemo legal | illegal | overrun\n".utf8))
    exit(2)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LiveCheckDemo-\(UUID().uuidString)")
let counter = CountingReporter(StandardErrorReporter(prefix: stamp))
let recorder: Recorder
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    recorder = try Recorder(
        file: directory.appendingPathComponent("demo.lifetrace"), app: "com.example.livecheckdemo",
        sceneManifest: true, lifecycle: .uikit)
    _ = try recorder.captureLifecycle()
} catch {
    FileHandle.standardError.write(Data("LiveCheckDemo: \(error)\n".utf8))
    exit(1)
}
// The one line an app adds (here with the standard-error reporter alone, and a time before each line).
let session = LiveCheck.start(recorder: recorder, reporter: counter)
say("live check \(session == nil ? "compiled out (release build)" : "on"); scenario \(scenario.rawValue)")
scenario.run(recorder: recorder, say: say)
session?.stop()
try? recorder.close()
try? FileManager.default.removeItem(at: directory)
say("done: \(counter.count) finding\(counter.count == 1 ? "" : "s")")
exit(counter.count == 0 ? 0 : 1)
