#if canImport(Testing)
public import Testing

extension LifecycleTrace {
    /// Records an issue if the trace has lifecycle errors, listing each as `lifetrace check` prints it: the
    /// one call a Swift Testing test makes.
    public func expectNoLifecycleErrors(sourceLocation: SourceLocation = #_sourceLocation) {
        guard !errors.isEmpty else { return }
        Issue.record(Comment(rawValue: noErrorsFailureMessage), sourceLocation: sourceLocation)
    }
}
#endif
