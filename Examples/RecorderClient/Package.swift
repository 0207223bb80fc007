// swift-tools-version:6.1

import PackageDescription

// A program outside lifetrace that links only LifetraceRecorder, as an app does: it must build with no
// libzstd or zstd.h anywhere (scripts/check-app-link proves it) and play an app's lifecycle through the
// notifications UIKit posts.
let package = Package(
    name: "RecorderClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "lifetrace", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "RecorderClient",
            dependencies: [.product(name: "LifetraceRecorder", package: "lifetrace")]
        )
    ]
)
