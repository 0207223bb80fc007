// swift-tools-version:6.1

import PackageDescription

// Fuzz targets for libFuzzer, in a package of their own so that the library's build never pays for them.
// `scripts/fuzz` builds them with `-sanitize=fuzzer,address` and runs each against its corpus.
let package = Package(
    name: "lifetrace-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "lifetrace", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "LifetraceCore", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "_LifetraceZstd", package: "lifetrace"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "_LifetraceReport", package: "lifetrace"),
            ]
        ),
        .executableTarget(name: "FuzzTraceReader", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzJSONLines", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "FuzzLogImport",
            dependencies: ["FuzzSupport", .product(name: "_LifetraceImport", package: "lifetrace")]
        ),
        .executableTarget(
            name: "FuzzConfiguration",
            dependencies: ["FuzzSupport", .product(name: "_LifetraceChecking", package: "lifetrace")]
        ),
        .executableTarget(
            name: "FuzzCompare",
            dependencies: ["FuzzSupport", .product(name: "_LifetraceSummary", package: "lifetrace")]
        ),
        .executableTarget(name: "FuzzRecover", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "FuzzImportDates",
            dependencies: ["FuzzSupport", .product(name: "_LifetraceImport", package: "lifetrace")]
        ),
        .executableTarget(
            name: "FuzzCompareNumbers",
            dependencies: ["FuzzSupport", .product(name: "_LifetraceSummary", package: "lifetrace")]
        ),
    ]
)
