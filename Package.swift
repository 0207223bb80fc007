// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "LifetraceCore", targets: ["LifetraceCore"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifetraceZstd", targets: ["LifetraceZstd"]),
        .library(name: "LifetraceRecorder", targets: ["LifetraceRecorder"]),
        .library(name: "LifetraceSimulator", targets: ["LifetraceSimulator"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
        .library(name: "LifetraceReport", targets: ["LifetraceReport"]),
        .library(name: "LifetraceImport", targets: ["LifetraceImport"]),
        .executable(name: "lifetrace", targets: ["lifetrace"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // libzstd, for the command line's compression only: Apple's device SDKs have none, so nothing an app
        // links (LifetraceRecorder and what it depends on) may depend on it.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // The event model: no I/O.
        .target(name: "LifetraceCore"),
        // Locks, worker threads and the one pipeline that reads on more than one thread; internal to the package.
        .target(name: "LifetraceConcurrency"),
        // Stage 2: the `.lifetrace` binary format and JSON Lines, streaming readers and writers, in Swift alone
        // (stored zstd frames); libzstd's compression plugs in from LifetraceZstd.
        .target(name: "LifetraceFormat", dependencies: ["LifetraceCore", "LifetraceConcurrency"]),
        .target(name: "LifetraceZstd", dependencies: ["LifetraceFormat", "CZstd"]),
        // Stage 1: a model of the iOS lifecycle that writes realistic traces, with ground truth and faults.
        .target(name: "LifetraceSimulator", dependencies: ["LifetraceCore"]),
        // Stage 3: the one-pass streaming analyzer: lifecycle models as data, rules, budgets, inference.
        .target(name: "LifetraceAnalysis", dependencies: ["LifetraceCore", "LifetraceFormat", "LifetraceZstd"]),
        // Stage 4: timelines as self-contained HTML and terminal text, and exports at full fidelity: Perfetto's
        // protobuf trace (messages generated from Schemas/perfetto/ by scripts/gen-perfetto-protos) and Chrome JSON.
        .target(
            name: "LifetraceReport",
            dependencies: [
                "LifetraceAnalysis", "LifetraceCore", "LifetraceFormat",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // Stage 1: lifecycle traces derived from unified-log captures of apps nobody instrumented.
        .target(name: "LifetraceImport", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // Stage 1: the in-process recorder an instrumented app links.
        // Its privacy manifest declares the required-reason APIs of everything it links (Apple, "Describing use
        // of required reason API"); a test fails when the code uses one the manifest lacks.
        .target(
            name: "LifetraceRecorder",
            dependencies: ["LifetraceCore", "LifetraceFormat", "LifetraceConcurrency"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The command-line tool: wires the stages together.
        .executableTarget(
            name: "lifetrace",
            dependencies: [
                "LifetraceConcurrency",
                "LifetraceCore",
                "LifetraceFormat",
                "LifetraceZstd",
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
        .testTarget(name: "LifetraceConcurrencyTests", dependencies: ["LifetraceConcurrency"]),
        .testTarget(name: "LifetraceCoreTests", dependencies: ["LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(name: "LifetraceFormatTests", dependencies: ["LifetraceFormat", "LifetraceZstd", "LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(name: "LifetraceSimulatorTests", dependencies: ["LifetraceSimulator", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: ["LifetraceAnalysis", "LifetraceFormat", "LifetraceTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "LifetraceReportTests", dependencies: ["LifetraceReport", "LifetraceZstd", "LifetraceAnalysis", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceImportTests",
            dependencies: ["LifetraceImport", "LifetraceAnalysis", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "LifetraceRecorderTests", dependencies: ["LifetraceRecorder", "LifetraceConcurrency", "LifetraceFormat", "LifetraceZstd", "LifetraceAnalysis", "LifetraceImport", "LifetraceTestSupport"]),
        .testTarget(
            name: "lifetraceTests",
            dependencies: ["lifetrace", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
