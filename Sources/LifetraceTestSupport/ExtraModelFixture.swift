import Foundation

/// A directory of extra models holding the Android activity model (and a file that is no model), with a trace that
/// breaks it: onResume straight after onCreate is that model's AND002, which the built-in models do not know.
public struct ExtraModelFixture {
    /// The models directory, for `--models`.
    public let models: String
    /// A JSON Lines trace that only the extra model finds fault with (AND002).
    public let trace: String

    /// Writes the directory and the trace inside `directory`.
    public init(in directory: TemporaryDirectory) throws {
        models = directory.file("models")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackagePaths.path("Tests/LifetraceAnalysisTests/Fixtures/android-activity.json"),
            toPath: models + "/android-activity.json")
        directory.write("models/notes.txt", text: "not a model")
        trace = directory.write(
            "activity.jsonl",
            text: """
                {"t":0,"ev":"process.launch","reason":"user"}
                {"t":10,"ev":"custom.onCreate"}
                {"t":20,"ev":"custom.onResume"}

                """)
    }
}
