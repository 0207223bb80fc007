// swift-tools-version:6.2
// 6.2: swift-service-lifecycle 2.13.0 declares it in its own manifest.

import PackageDescription

// A service outside lifetrace, as a Swift server is written: two services under swift-server's ServiceGroup, recorded
// by LifetraceServiceLifecycle (lifetrace builds the same sources as its ServiceExample target, for its tests).
let package = Package(
    name: "ServiceExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "lifetrace", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "ServiceExample",
            dependencies: [
                .product(name: "LifetraceServiceLifecycle", package: "lifetrace"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ]
)
