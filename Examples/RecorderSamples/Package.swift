// swift-tools-version:6.1

import PackageDescription

// The recorder guide's samples (docs/recorder.md) as code that compiles: the UIKit, BackgroundTasks and WatchKit parts build
// on Apple platforms (the Apple workflow builds this package for iOS, watchOS and macOS in Swift 6 mode with
// warnings as errors); elsewhere only what needs no UI framework. scripts/check-readme-samples checks that
// docs/recorder.md shows these regions as they are here.
let package = Package(
    name: "RecorderSamples",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "lifetrace", path: "../..", traits: [])
    ],
    targets: [
        .target(
            name: "RecorderSamples",
            dependencies: [.product(name: "LifetraceRecorder", package: "lifetrace")],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
