import LifetraceAnalysis
import LifetraceFormat

/// The name viewers show for a track: its group's and, past the group's first lane, the lane's number
/// (`scene main`, `scene main (2)`). Spelled by the encoder that writes it (``appendUTF8(to:)``), so that a trace of
/// thousands of processes, each with tracks of its own, builds no string for them on the reading thread.
struct ExportTrackName {
    /// The group the track is a lane of.
    var group: ExportLayout.Group
    /// Its lane in the group, from 0.
    var lane: Int

    /// The name as text.
    var text: String {
        var bytes: [UInt8] = []
        appendUTF8(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the name's UTF-8 bytes to `output`. A scene's id is cut at ``TraceAnalyzer/keptStringLength``
    /// bytes (its slices' arguments keep it whole), so that a track's name stays small whatever a trace names.
    func appendUTF8<Output: ByteAppending>(to output: inout Output) {
        switch group {
        case .events: output.appendLiteral("events")
        case .state: output.appendLiteral("process state")
        case .appDelegate: output.appendLiteral("app delegate")
        case .tasks: output.appendLiteral("background tasks")
        case .inputWarnings: output.appendLiteral("input warnings")
        case let .scene(scene), let .sceneState(scene):
            if scene.isEmpty {
                output.appendLiteral("app")
            } else {
                output.appendLiteral("scene ")
                Self.appendBounded(scene, to: &output)
            }
        case let .service(service), let .serviceState(service):
            output.appendLiteral("service ")
            Self.appendBounded(service, to: &output)
        }
        switch group {
        case .sceneState, .serviceState: output.appendLiteral(" state")
        default: break
        }
        guard lane > 0 else { return }
        output.appendLiteral(" (")
        output.appendDecimal(Int64(lane + 1))
        output.append(UInt8(ascii: ")"))
    }

    /// Appends `scene`, or its first ``TraceAnalyzer/keptStringLength`` bytes and an ellipsis, decoded as a string
    /// would be (a character cut in two becomes U+FFFD).
    private static func appendBounded<Output: ByteAppending>(_ scene: String, to output: inout Output) {
        let limit = TraceAnalyzer.keptStringLength
        guard scene.utf8.count > limit else { return output.appendUTF8(scene) }
        output.appendUTF8(String(decoding: scene.utf8.prefix(limit), as: UTF8.self))
        output.appendLiteral("…")
    }
}
