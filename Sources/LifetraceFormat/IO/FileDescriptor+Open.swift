package import SystemPackage

extension FileDescriptor {
    /// `path` opened for reading, as given (not normalized as `FilePath` would be).
    package static func open(forReading path: String) throws(TraceError) -> FileDescriptor {
        do {
            return try path.withCString { try FileDescriptor.open($0, .readOnly) }
        } catch {
            throw .io(path, at: .file, "cannot open", error)
        }
    }
}
