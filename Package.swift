// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "LifetraceCore", targets: ["LifetraceCore"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifetraceRecorder", targets: ["LifetraceRecorder"]),
        .library(name: "LifetraceSimulator", targets: ["LifetraceSimulator"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
        .library(name: "LifetraceReport", targets: ["LifetraceReport"]),
        .library(name: "LifetraceImport", targets: ["LifetraceImport"]),
        .executable(name: "lifetrace", targets: ["lifetrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // Stage 0: the C library the binary format is framed with.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // The event model: no I/O.
        .target(name: "LifetraceCore"),
        // Stage 2: the `.lifetrace` binary format and JSON Lines, streaming readers and writers.
        .target(name: "LifetraceFormat", dependencies: ["LifetraceCore", "CZstd"]),
        // Stage 1: a model of the iOS lifecycle that writes realistic traces, with ground truth and faults.
        .target(name: "LifetraceSimulator", dependencies: ["LifetraceCore"]),
        // Stage 3: the one-pass streaming analyzer: lifecycle models as data, rules, budgets, inference.
        .target(name: "LifetraceAnalysis", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // Stage 4: timelines as self-contained HTML and terminal text, and Chrome/Perfetto export.
        .target(name: "LifetraceReport", dependencies: ["LifetraceAnalysis", "LifetraceCore", "LifetraceFormat"]),
        // Stage 1: lifecycle traces derived from unified-log captures of apps nobody instrumented.
        .target(name: "LifetraceImport", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // Stage 1: the in-process recorder an instrumented app links.
        .target(name: "LifetraceRecorder", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // The command-line tool: wires the stages together.
        .executableTarget(
            name: "lifetrace",
            dependencies: [
                "LifetraceCore",
                "LifetraceFormat",
                "LifetraceRecorder",
                "LifetraceSimulator",
                "LifetraceAnalysis",
                "LifetraceReport",
                "LifetraceImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Generators and helpers shared by the test targets.
        .target(name: "LifetraceTestSupport", dependencies: ["LifetraceCore", "LifetraceSimulator"]),
        .testTarget(name: "LifetraceCoreTests", dependencies: ["LifetraceCore"]),
        .testTarget(name: "LifetraceFormatTests", dependencies: ["LifetraceFormat", "LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(name: "LifetraceSimulatorTests", dependencies: ["LifetraceSimulator", "LifetraceFormat", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: ["LifetraceAnalysis", "LifetraceFormat", "LifetraceTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "LifetraceReportTests", dependencies: ["LifetraceReport", "LifetraceAnalysis", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceImportTests",
            dependencies: ["LifetraceImport", "LifetraceAnalysis", "LifetraceFormat", "LifetraceTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "LifetraceRecorderTests", dependencies: ["LifetraceRecorder", "LifetraceFormat", "LifetraceTestSupport"]),
        .testTarget(name: "lifetraceTests", dependencies: ["lifetrace", "LifetraceFormat", "LifetraceTestSupport"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
