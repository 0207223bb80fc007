import Foundation
import Testing

@testable import LifetraceRecorder

/// The capture observes the frameworks' notifications by name, as string literals (it imports no UI framework), so
/// nothing compiles them against the SDK's constants. This table is written from Apple's documentation of each
/// constant — its Objective-C name, which is also the string the framework posts — and a typo in either fails here.
@Suite struct NotificationNameTests {
    /// Each case and the constant Apple documents for it, with the page's title.
    static let documented: [(LifecycleNotification, String)] = [
        // UIKit, "UIApplication" (Notifications): the Objective-C names of UIApplication's notification constants.
        (.applicationDidFinishLaunching, "UIApplicationDidFinishLaunchingNotification"),
        (.applicationDidBecomeActive, "UIApplicationDidBecomeActiveNotification"),
        (.applicationWillResignActive, "UIApplicationWillResignActiveNotification"),
        (.applicationDidEnterBackground, "UIApplicationDidEnterBackgroundNotification"),
        (.applicationWillEnterForeground, "UIApplicationWillEnterForegroundNotification"),
        (.applicationWillTerminate, "UIApplicationWillTerminateNotification"),
        (.applicationDidReceiveMemoryWarning, "UIApplicationDidReceiveMemoryWarningNotification"),
        // "protectedDataWillBecomeUnavailableNotification": its Objective-C name has no Notification suffix.
        (.applicationProtectedDataWillBecomeUnavailable, "UIApplicationProtectedDataWillBecomeUnavailable"),
        (.applicationProtectedDataDidBecomeAvailable, "UIApplicationProtectedDataDidBecomeAvailable"),
        // UIKit, "UIScene" (Notifications).
        (.sceneWillConnect, "UISceneWillConnectNotification"),
        (.sceneDidActivate, "UISceneDidActivateNotification"),
        (.sceneWillDeactivate, "UISceneWillDeactivateNotification"),
        (.sceneDidEnterBackground, "UISceneDidEnterBackgroundNotification"),
        (.sceneWillEnterForeground, "UISceneWillEnterForegroundNotification"),
        (.sceneDidDisconnect, "UISceneDidDisconnectNotification"),
        // WatchKit, "WKApplication" (Responding to app state changes).
        (.watchApplicationDidFinishLaunching, "WKApplicationDidFinishLaunchingNotification"),
        (.watchApplicationDidBecomeActive, "WKApplicationDidBecomeActiveNotification"),
        (.watchApplicationWillResignActive, "WKApplicationWillResignActiveNotification"),
        (.watchApplicationWillEnterForeground, "WKApplicationWillEnterForegroundNotification"),
        (.watchApplicationDidEnterBackground, "WKApplicationDidEnterBackgroundNotification"),
        // AppKit, "NSApplication" (Notifications).
        (.macApplicationDidFinishLaunching, "NSApplicationDidFinishLaunchingNotification"),
        (.macApplicationDidBecomeActive, "NSApplicationDidBecomeActiveNotification"),
        (.macApplicationWillResignActive, "NSApplicationWillResignActiveNotification"),
        (.macApplicationDidHide, "NSApplicationDidHideNotification"),
        (.macApplicationDidUnhide, "NSApplicationDidUnhideNotification"),
        (.macApplicationWillTerminate, "NSApplicationWillTerminateNotification"),
        // Foundation, "NSApplicationProtectedDataWillBecomeUnavailable" and "...DidBecomeAvailable" (macOS 12): the
        // Swift names drop the Notification suffix that the AppKit constants carry.
        (
            .macApplicationProtectedDataWillBecomeUnavailable,
            "NSApplicationProtectedDataWillBecomeUnavailableNotification"
        ),
        (.macApplicationProtectedDataDidBecomeAvailable, "NSApplicationProtectedDataDidBecomeAvailableNotification"),
        // Foundation, "NSExtensionContext" (Notifications): the host app's state, seen from an app extension.
        (.extensionHostDidBecomeActive, "NSExtensionHostDidBecomeActiveNotification"),
        (.extensionHostWillResignActive, "NSExtensionHostWillResignActiveNotification"),
        (.extensionHostDidEnterBackground, "NSExtensionHostDidEnterBackgroundNotification"),
        (.extensionHostWillEnterForeground, "NSExtensionHostWillEnterForegroundNotification"),
        // Foundation, "thermalStateDidChangeNotification" (NSProcessInfoThermalStateDidChangeNotification).
        (.thermalStateDidChange, "NSProcessInfoThermalStateDidChangeNotification"),
    ]

    @Test func everyNameIsTheOneAppleDocuments() {
        #expect(Set(Self.documented.map(\.0)) == Set(LifecycleNotification.allCases), "a case the table lacks")
        #expect(Self.documented.count == LifecycleNotification.allCases.count, "a case twice in the table")
        for (notification, name) in Self.documented {
            #expect(notification.rawValue == name, "\(notification)")
        }
    }

    /// Every string literal of the source file is a documented name: a literal added without its row here, or
    /// spelt differently from the case it belongs to, fails.
    @Test func everyLiteralInTheSourceIsInTheTable() throws {
        // From Tests/LifetraceRecorderTests/Capture/NotificationNameTests.swift to the package's root.
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/LifetraceRecorder/Capture/LifecycleNotification.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let literals = Self.caseLiterals(in: text)
        #expect(literals.count == LifecycleNotification.allCases.count)
        let documented = Dictionary(uniqueKeysWithValues: Self.documented.map { ("\($0.0)", $0.1) })
        for (name, literal) in literals {
            #expect(documented[name] == literal, "case \(name) = \"\(literal)\"")
        }
    }

    /// The `case name = "literal"` lines of Swift source, as (name, literal).
    static func caseLiterals(in text: String) -> [(String, String)] {
        // A case whose literal the formatter moved to the next line is read as one line.
        let joined = text.replacingOccurrences(of: "=\n", with: "= ")
        return joined.split(separator: "\n").compactMap { line -> (String, String)? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("case "), let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 5)..<equals].trimmingCharacters(
                in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return nil }
            return (name, String(value.dropFirst().dropLast()))
        }
    }

    /// The parse the test relies on finds a misspelt literal.
    @Test func aTypoInTheSourceWouldBeFound() {
        let typo = """
            public enum LifecycleNotification: String {
                case applicationDidBecomeActive = "UIApplicationDidBecomeActivNotification"
            }
            """
        let literals = Self.caseLiterals(in: typo)
        #expect(literals.count == 1)
        let documented = Dictionary(uniqueKeysWithValues: Self.documented.map { ("\($0.0)", $0.1) })
        #expect(literals.first.map { documented[$0.0] != $0.1 } == true)
    }
}
