// swift-tools-version:6.1

import PackageDescription

// An app's test target, outside lifetrace: it links LifetraceTesting (and the recorder its "app" uses) and
// must build and run with no libzstd or zstd.h anywhere (scripts/check-app-link runs its tests that way).
let package = Package(
    name: "TestingClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "lifetrace", path: "../..", traits: [])
    ],
    targets: [
        // The "app": plays a lifecycle through the notifications UIKit posts, recorded by LifetraceRecorder.
        .target(
            name: "TestingClient",
            dependencies: [.product(name: "LifetraceRecorder", package: "lifetrace")]
        ),
        .testTarget(
            name: "TestingClientTests",
            dependencies: [
                "TestingClient",
                .product(name: "LifetraceTesting", package: "lifetrace"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
            ]
        ),
    ]
)
