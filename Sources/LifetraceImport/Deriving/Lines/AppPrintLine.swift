import LifetraceCore

/// An app's own print of one of its lifecycle callbacks: many apps log each delegate method's name as it runs,
/// and the message is then exactly that name, in one of the common spellings:
///
/// - Swift's `#function`: `applicationDidBecomeActive(_:)`, `sceneDidEnterBackground(_:)`,
///   `application(_:didFinishLaunchingWithOptions:)`, with or without the type (`AppDelegate.…`);
/// - Objective-C's `__PRETTY_FUNCTION__`: `-[AppDelegate applicationDidBecomeActive:]`;
/// - the selector or the bare name: `applicationDidBecomeActive:`, `applicationDidEnterBackground`
///   (`NSStringFromSelector(_cmd)`, or a literal);
/// - Cordova's iOS platform: `Running AppDelegate 'applicationDidBecomeActive:'`.
///
/// A message that says anything more (`applicationDidBecomeActive called`, `-[AppDelegate
/// applicationWillResignActive:],33`, `in applicationDidEnterBackground(_:) saving`) names no callback: only the
/// app's word that the callback ran is taken.
enum AppPrintLine {
    /// The callbacks, by the name their print spells, with the event each is.
    private static let callbacks: [(name: StaticString, kind: EventKind)] = [
        ("applicationDidBecomeActive", .appDidBecomeActive),
        ("applicationWillResignActive", .appWillResignActive),
        ("applicationDidEnterBackground", .appDidEnterBackground),
        ("applicationWillEnterForeground", .appWillEnterForeground),
        ("applicationWillTerminate", .appWillTerminate),
        ("applicationDidReceiveMemoryWarning", .appDidReceiveMemoryWarning),
        ("applicationDidFinishLaunching", .appDidFinishLaunching),
        ("applicationWillFinishLaunching", .appWillFinishLaunching),
        ("applicationDidHide", .appDidHide),
        ("applicationDidUnhide", .appDidUnhide),
        ("sceneDidBecomeActive", .appDidBecomeActive),
        ("sceneWillResignActive", .appWillResignActive),
        ("sceneDidEnterBackground", .appDidEnterBackground),
        ("sceneWillEnterForeground", .appWillEnterForeground),
    ]

    /// The launch callbacks, whose names have a second argument: `application(_:didFinishLaunchingWithOptions:)`,
    /// `application:didFinishLaunchingWithOptions:`.
    private static let launches: [(label: StaticString, kind: EventKind)] = [
        ("didFinishLaunchingWithOptions", .appDidFinishLaunching),
        ("willFinishLaunchingWithOptions", .appWillFinishLaunching),
    ]

    /// The longest message that can be a callback's print (`-[` a long class name ` application:...:]`).
    static let maxLength = 160

    /// The callback `message` (a line of the app's process) prints, or `nil`.
    ///
    /// Every line of the app passes here: its length and first byte decide before anything is searched, and
    /// nothing is allocated.
    /// Only the message's first line is read: in Xcode's console the lines after it are what the app printed
    /// next.
    static func callback(_ message: String) -> EventKind? {
        guard let first = message.utf8.first, startsCandidate(first) else { return nil }
        return message.utf8.withContiguousStorageIfAvailable { bytes -> EventKind? in
            let head = bytes.prefix(maxLength + 1)
            let end = head.firstIndex(of: 0x0A) ?? head.count
            guard end <= maxLength else { return nil }
            return callback(in: UnsafeBufferPointer(rebasing: bytes[..<end]))
        } ?? nil
    }

    /// Whether a print can start with `byte`: a letter (a name, a type, `Running`), `-` or `+` (a method), a space
    /// (Xcode's console printed some lines with one).
    private static func startsCandidate(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x2D || byte == 0x2B
            || byte == 0x20
    }

    private static func callback(in bytes: UnsafeBufferPointer<UInt8>) -> EventKind? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        guard start < end else { return nil }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if line.count > 3, line[0] == 0x2D || line[0] == 0x2B, line[1] == 0x5B, line[line.count - 1] == 0x5D {
            // `-[Type selector]`: the selector after the type's name.
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            return name(UnsafeBufferPointer(rebasing: line[(space + 1)..<(line.count - 1)]), selectorOnly: true)
        }
        if starts(line, with: "Running "), line[line.count - 1] == 0x27 {
            // Cordova: `Running AppDelegate 'selector'`.
            guard let quote = line.firstIndex(of: 0x27), quote < line.count - 1 else { return nil }
            let type = line[8..<quote]
            guard type.count > 1, type.last == 0x20, !type.dropLast().contains(0x20) else { return nil }
            return name(UnsafeBufferPointer(rebasing: line[(quote + 1)..<(line.count - 1)]), selectorOnly: true)
        }
        // `Type.name(_:)` / `name(_:)` / `name:` / `name`: a type's name before a dot, if any, and no space.
        guard !line.contains(0x20) else { return nil }
        let open = line.firstIndex(of: 0x28) ?? line.count
        let from = line[..<open].lastIndex(of: 0x2E).map { $0 + 1 } ?? 0
        return name(UnsafeBufferPointer(rebasing: line[from...]), selectorOnly: false)
    }

    /// The callback `text` names exactly: `name`, `name:`, or (not for a selector) `name(_:)`; the launch
    /// callbacks `application:LABEL:` and `application(_:LABEL:)`.
    private static func name(_ text: UnsafeBufferPointer<UInt8>, selectorOnly: Bool) -> EventKind? {
        // Every name starts `application` or `scene`.
        guard let first = text.first, first == UInt8(ascii: "a") || first == UInt8(ascii: "s") else { return nil }
        if starts(text, with: "application:") {
            let rest = UnsafeBufferPointer(rebasing: text[12...])
            for (label, kind) in launches where starts(rest, with: label) {
                if equals(rest[label.utf8CodeUnitCount...], ":") { return kind }
            }
        } else if !selectorOnly, starts(text, with: "application(_:") {
            let rest = UnsafeBufferPointer(rebasing: text[14...])
            for (label, kind) in launches where starts(rest, with: label) {
                if equals(rest[label.utf8CodeUnitCount...], ":)") { return kind }
            }
        }
        for (name, kind) in callbacks {
            guard starts(text, with: name) else { continue }
            let rest = text[name.utf8CodeUnitCount...]
            if rest.isEmpty || equals(rest, ":") { return kind }
            if !selectorOnly, equals(rest, "(_:)") { return kind }
        }
        return nil
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return prefix.withUTF8Buffer { UnsafeBufferPointer(rebasing: bytes[0..<count]).elementsEqual($0) }
    }

    /// Whether `bytes` are exactly `text`.
    private static func equals(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { bytes.elementsEqual($0) }
    }
}
