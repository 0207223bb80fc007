import ArgumentParser
import LifetraceCore

/// What a trace's header may say of the run it records, for `summarize` and the warehouses its rows go to: the
/// keys of ``TraceHeader/Key`` (`app_version`, `build`, `os_version`, `device`, `test_name`) and any other
/// `--meta KEY=VALUE`. Shared by `record`, `import` and `simulate`.
struct HeaderMetadataOptions: ParsableArguments {
    @Option(name: .customLong("app-version"), help: "The app's version (header app_version).")
    var appVersion: String?

    @Option(help: "The app's build number (header build).")
    var build: String?

    @Option(
        name: .customLong("os-version"),
        help: "The operating system and its version, e.g. \"iOS 18.2\" (header os_version).")
    var osVersion: String?

    @Option(help: "The device model, e.g. iPhone15,2 (header device).")
    var device: String?

    @Option(name: .customLong("test-name"), help: "The test the run belongs to (header test_name).")
    var testName: String?

    @Option(
        name: .customLong("meta"),
        help: ArgumentHelp(
            "Another header member, as a string (not one the format types otherwise, such as heartbeat_ns, nor the header's own: lifetrace, clock, start_unix_ns, app, scene_manifest).",
            valueName: "key=value"))
    var members: [String] = []

    func validate() throws {
        for member in members {
            guard let equals = member.firstIndex(of: "="), equals != member.startIndex else {
                throw ValidationError("--meta takes key=value, not \"\(member)\"")
            }
        }
        // Every value here is a string: a member the format types otherwise (`heartbeat_ns`, `capture`), or
        // one the header states itself (`clock`), would write a header no reader takes.
        for (key, value) in entries {
            if let problem = TraceHeader.problem(metadata: key, value: value) {
                throw ValidationError("--meta \(key): \(problem)")
            }
        }
    }

    /// The members given, in the order above; a `--meta` key repeats one of the named options' at its own risk
    /// (the later wins).
    var entries: [(key: String, value: JSONValue)] {
        var entries: [(key: String, value: JSONValue)] = []
        let named: [(TraceHeader.Key, String?)] = [
            (.appVersion, appVersion), (.build, build), (.osVersion, osVersion),
            (.device, device), (.testName, testName),
        ]
        for (key, value) in named { if let value { entries.append((key.rawValue, .string(value))) } }
        for member in members {
            let equals = member.firstIndex(of: "=")!
            entries.append((String(member[..<equals]), .string(String(member[member.index(after: equals)...]))))
        }
        return entries
    }

    /// `header` with the members given set on it.
    func applied(to header: TraceHeader) -> TraceHeader {
        var header = header
        for (key, value) in entries { header[metadata: key] = value }
        return header
    }
}
