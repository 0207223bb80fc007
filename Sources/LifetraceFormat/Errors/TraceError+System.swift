import SystemPackage

extension TraceError {
    /// A file that could not be opened, read or written: `what` (`cannot open`), then the system's reason
    /// (`strerror`'s text for the `Errno` a `FileDescriptor` call threw).
    package static func io(_ file: String, at position: TracePosition, _ what: String, _ error: any Error) -> TraceError
    {
        let reason = (error as? Errno)?.description ?? String(describing: error)
        return TraceError(.io, file: file, at: position, "\(what): \(reason)")
    }
}
