// swift-tools-version:6.1

import PackageDescription

// Benchmarks live in their own package so the library's build never pays for them; `scripts/bench` builds
// and runs them.
let package = Package(
    name: "lifetrace-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "lifetrace", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "lifetrace-bench",
            dependencies: [
                .product(name: "LifetraceRecorder", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceCore", package: "lifetrace"),
            ]
        )
    ]
)
