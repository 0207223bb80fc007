/// A trace's metadata: the format version, the clock, the app and any extension fields.
///
/// Its JSON form is the optional first line of a JSON Lines trace,
/// `{"lifetrace":1,"clock":"continuous","start_unix_ns":1763700000000000000,"app":"com.example.app","scene_manifest":true}`,
/// and the payload of a binary trace's header frame. Members other than the known ones are kept, in order,
/// in ``extra``.
public struct TraceHeader: Hashable, Sendable {
    /// The major version of the format the trace was written in (the `lifetrace` member).
    public var majorVersion: Int64
    /// The clock the timestamps were taken on.
    public var clock: TraceClock?
    /// The wall-clock time of `t = 0`, in nanoseconds since 1970.
    public var startUnixNanoseconds: Int64?
    /// The app's bundle identifier.
    public var app: String?
    /// Whether the app has a scene manifest (`UIApplicationSceneManifest`) in its Info.plist.
    public var sceneManifest: Bool?
    /// Other members (`scenario`, `seed`, `faults`, `source`, ...), in the order they were written.
    public var extra: [(key: String, value: JSONValue)]

    /// Creates a header.
    public init(
        majorVersion: Int64 = 1,
        clock: TraceClock? = nil,
        startUnixNanoseconds: Int64? = nil,
        app: String? = nil,
        sceneManifest: Bool? = nil,
        extra: [(key: String, value: JSONValue)] = []
    ) {
        self.majorVersion = majorVersion
        self.clock = clock
        self.startUnixNanoseconds = startUnixNanoseconds
        self.app = app
        self.sceneManifest = sceneManifest
        self.extra = extra
    }

    /// The value of the extension member named `key`, or `nil`; setting `nil` removes it. For free-form
    /// metadata (a recorder's, `--meta`); the members lifetrace knows are read by ``Key``
    /// (``subscript(_:)``) or through their typed properties.
    public subscript(metadata key: String) -> JSONValue? {
        get { JSONMembers.value(of: key, in: extra) }
        set { JSONMembers.set(key, to: newValue, in: &extra) }
    }

    /// Compares two headers, extension members in order.
    public static func == (lhs: TraceHeader, rhs: TraceHeader) -> Bool {
        lhs.majorVersion == rhs.majorVersion && lhs.clock == rhs.clock
            && lhs.startUnixNanoseconds == rhs.startUnixNanoseconds && lhs.app == rhs.app
            && lhs.sceneManifest == rhs.sceneManifest
            && JSONValue.object(lhs.extra) == JSONValue.object(rhs.extra)
    }

    /// Hashes the header consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(majorVersion)
        hasher.combine(clock)
        hasher.combine(startUnixNanoseconds)
        hasher.combine(app)
        hasher.combine(sceneManifest)
        hasher.combine(JSONValue.object(extra))
    }
}
