/// SpringBoard's lines about the app (`Schemas/oslog-mapping.md`, *Other processes*).
enum SpringBoardLine {
    /// What `message` says about `bundle`'s process, if anything. (A fixed marker is looked for first, and the
    /// bundle only after it: SpringBoard logs a lot.)
    static func observe(_ message: String, bundle: String) -> SystemObservation? {
        // `Bootstrapping app<ID> with intent foreground-interactive`: SpringBoard starts a process, and why.
        if message.hasPrefix("Bootstrapping app<") {
            let rest = message.dropFirst("Bootstrapping app<".count)
            guard rest.hasPrefix(bundle), rest.dropFirst(bundle.count).hasPrefix("> with intent ") else { return nil }
            let intent = rest.dropFirst(bundle.count + "> with intent ".count).prefix { $0 != " " }
            return SystemObservation(
                .bootstrapping(
                    reason: launchReason(intent: intent),
                    foreground: intent == "foreground-interactive"))
        }
        // iOS 10: `Executing suspended-activation immediately: OpenApplication(ID)ForRequester(locationd.1882)`:
        // the app is to be started in the background for another process.
        if let marker = UTF8Search.range(of: "suspended-activation immediately: OpenApplication(", in: message) {
            let rest = message[marker.upperBound...]
            guard rest.hasPrefix(bundle), rest.dropFirst(bundle.count).hasPrefix(")ForRequester(") else { return nil }
            let requester = rest.dropFirst(bundle.count + ")ForRequester(".count).prefix { $0 != "." && $0 != ")" }
            return SystemObservation(.launchRequested(reason: requesterReason(requester), foreground: false))
        }
        // iOS 10: `[ID] Bootstrap complete with label: UIKitApplication:ID[0x966e][63]`.
        if UTF8Search.range(of: "] Bootstrap complete with label: ", in: message) != nil {
            return message.hasPrefix("[" + bundle + "] Bootstrap complete") ? SystemObservation(.jobStarted) : nil
        }
        // iOS 8: `Application 'UIKitApplication:ID[0x942c]' exited abnormally via signal.`
        if UTF8Search.range(of: "' exited abnormally via signal", in: message) != nil {
            return message.hasPrefix("Application 'UIKitApplication:" + bundle + "[")
                ? SystemObservation(.exited(reason: "signal")) : nil
        }
        // iOS 8: `Application 'UIKitApplication:ID[0x942c]' exited voluntarily.`: the process returned from main
        // or called exit(), as SpringBoard tells it from one that a signal ended.
        if UTF8Search.range(of: "' exited voluntarily", in: message) != nil {
            return message.hasPrefix("Application 'UIKitApplication:" + bundle + "[")
                ? SystemObservation(.exited(reason: "exit")) : nil
        }
        // Device syslog (2015): `Application 'UIKitApplication:ID[0xc435]' was killed by jetsam.`: the kernel's
        // memory-pressure kill, as SpringBoard tells it (it names no pid, and no cause).
        if UTF8Search.range(of: "' was killed by jetsam", in: message) != nil {
            return message.hasPrefix("Application 'UIKitApplication:" + bundle + "[")
                ? SystemObservation(.exited(reason: "jetsam")) : nil
        }
        // iOS 9: `Forcing crash report of <FBApplicationProcess: 0x1b26fd30; NAME; pid: 1213> (reason: 1,
        // description: ID failed to launch after 20.00s (launchIntent: foreground-interactive))`: the launch
        // watchdog's kill (0x8badf00d), the crash report forced before launchd's `Killed: 9`.
        if message.hasPrefix("Forcing crash report of <FBApplicationProcess: ") {
            guard let marker = UTF8Search.range(of: "; pid: ", in: message),
                let pid = UTF8Search.integer(message, at: marker.upperBound),
                let described = UTF8Search.range(of: "description: ", in: message, from: marker.upperBound)
            else { return nil }
            let description = message[described.upperBound...]
            guard description.hasPrefix(bundle),
                description.dropFirst(bundle.count).hasPrefix(" failed to launch after ")
            else { return nil }
            let intent = UTF8Search.range(of: "(launchIntent: ", in: message, from: described.upperBound)
                .map { message[$0.upperBound...].prefix { $0 != ")" } }
            return SystemObservation(.watchdogKilled(foreground: intent.map { $0.hasPrefix("foreground") }), pid: pid)
        }
        // `Killing ID for app installation`: SpringBoard ends the running process to install the app anew. Of a
        // process already gone it ends nothing (the state machine ignores an end while no process runs).
        if message.hasPrefix("Killing "), message.hasSuffix(" for app installation") {
            return message.dropFirst(8).dropLast(21) == bundle[...]
                ? SystemObservation(.exited(reason: "app-installation")) : nil
        }
        // `[app<ID>:26683] Process exited: <RBSProcessExitContext| ... domain:signal(2) code:SIGABRT(6)>>.`
        if let exited = UTF8Search.range(of: "] Process exited: ", in: message) {
            guard message.hasPrefix("[app<" + bundle + ">:") else { return nil }
            let pid = UTF8Search.integer(
                message, at: message.utf8.index(message.startIndex, offsetBy: bundle.utf8.count + 7))
            if let code = UTF8Search.range(of: "domain:signal(2) code:", in: message, from: exited.upperBound) {
                let name = UTF8Search.prefix(message, from: code.upperBound) { $0 == UInt8(ascii: "(") }
                return SystemObservation(.exited(reason: String(name)), pid: pid)
            }
            return SystemObservation(.exited(reason: "exited"), pid: pid)
        }
        // `[0x86c20be40:(FBSceneManager):sceneID:ID-default] Scene lifecycle state did change: Foreground`
        if let marker = UTF8Search.range(of: "Scene lifecycle state did change: ", in: message) {
            guard message.contains("sceneID:" + bundle + "-") else { return nil }
            switch message[marker.upperBound...].prefix(while: { $0.isLetter }) {
            case "Background": return SystemObservation(.scene(foreground: false))
            case "Foreground": return SystemObservation(.scene(foreground: true))
            default: return SystemObservation(.notUnderstood)
            }
        }
        return nil
    }

    /// The launch reason for SpringBoard's launch intent: `foreground-interactive` is the user opening the
    /// app; other intents are kept as written.
    static func launchReason(intent: Substring) -> String {
        switch intent {
        case "foreground-interactive": "user"
        case "": "unknown"
        default: String(intent)
        }
    }

    /// The launch reason for the process that asked SpringBoard to open the app: locationd's is `location`
    /// (the app then finds `UIApplicationLaunchOptionsLocationKey` in its launch options); others as written.
    static func requesterReason(_ requester: Substring) -> String {
        switch requester {
        case "locationd": "location"
        case "": "unknown"
        default: String(requester)
        }
    }
}
