public import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

extension LifecycleModel {
    /// Reads a model from a JSON file (`--models`), of at most ``InputFileSize/configuration`` bytes.
    ///
    /// - Throws: a ``ModelError`` naming the file: it cannot be read, is too large, does not parse, or is not a
    ///   model.
    public init(contentsOf path: String) throws(ModelError) {
        do {
            let text = try SettingsFile.text(of: path, "a lifecycle model", limit: InputFileSize.configuration)
            self = try LifecycleModel(json: try JSONValue(parsing: text, file: path), file: path)
        } catch let error as ModelError {
            throw error
        } catch let error as TraceError {
            // `FILE: byte N: MESSAGE`: the file is the model's, said once.
            throw ModelError(
                file: path, message: error.position == .file ? error.message : "\(error.position): \(error.message)")
        } catch {
            throw ModelError(file: path, message: "\(error)")
        }
    }
}
