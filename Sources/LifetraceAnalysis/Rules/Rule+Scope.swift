public import LifetraceCore

extension Rule {
    /// The traces a rule applies to, as its declaration in `Schemas/rules.json` says (`applies`): by the lifecycle
    /// the trace follows, its scene manifest, how it was captured, whether it was derived from a log, the evidence
    /// of its suspensions and what its models read. A member left at its default admits every trace.
    public struct Scope: Sendable, Hashable {
        /// The lifecycles it applies to; `nil`: every one.
        public var lifecycles: Set<TraceHeader.Lifecycle>?
        /// The scene manifest the header must declare (`true`: a scene-based app); `nil`: any, or none said.
        public var sceneManifest: Bool?
        /// The capture methods it applies to, which the header must name; `nil`: any, or none said.
        public var captureMethods: Set<TraceHeader.CaptureMethod>?
        /// The capture methods it does not apply to (a header that names none is admitted).
        public var captureMethodsExcept: Set<TraceHeader.CaptureMethod>
        /// Whether it applies to a trace derived from a log capture (`lifetrace import`), which starts and stops
        /// wherever the capture did.
        public var derivedTraces: Bool
        /// Whether it applies only where the suspensions are the simulator's ground truth (`ground_truth`).
        public var groundTruthSuspensionsOnly: Bool
        /// An event kind a lifecycle model keyed by scene must read for the rule to apply; `nil`: none needed.
        public var sceneModelsReading: EventKind?

        /// A scope; with no arguments, every trace.
        public init(
            lifecycles: Set<TraceHeader.Lifecycle>? = nil, sceneManifest: Bool? = nil,
            captureMethods: Set<TraceHeader.CaptureMethod>? = nil,
            captureMethodsExcept: Set<TraceHeader.CaptureMethod> = [], derivedTraces: Bool = true,
            groundTruthSuspensionsOnly: Bool = false, sceneModelsReading: EventKind? = nil
        ) {
            self.lifecycles = lifecycles
            self.sceneManifest = sceneManifest
            self.captureMethods = captureMethods
            self.captureMethodsExcept = captureMethodsExcept
            self.derivedTraces = derivedTraces
            self.groundTruthSuspensionsOnly = groundTruthSuspensionsOnly
            self.sceneModelsReading = sceneModelsReading
        }

        /// Whether the scope admits a trace with `header`, whose suspensions are ground truth or not, and whose
        /// models keyed by scene read the kinds `sceneModelsRead` says they do.
        func admits(
            _ header: TraceHeader?, groundTruth: Bool, sceneModelsRead: (EventKind) -> Bool
        ) -> Bool {
            if let lifecycles, !lifecycles.contains(header.followedLifecycle) { return false }
            if let sceneManifest, header?.sceneManifest != sceneManifest { return false }
            let method = header?.captureMethod
            if let captureMethods, !(method.map(captureMethods.contains) ?? false) { return false }
            if let method, captureMethodsExcept.contains(method) { return false }
            if !derivedTraces, header?.isDerived == true { return false }
            if groundTruthSuspensionsOnly, !groundTruth { return false }
            if let kind = sceneModelsReading, !sceneModelsRead(kind) { return false }
            return true
        }
    }
}
