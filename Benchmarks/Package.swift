// swift-tools-version:6.1

import PackageDescription

// The benchmarks of LifetraceMicro call the package-level entry points the command line uses (a decoded
// `EventBlock`, `TraceAnalyzer.consume(_:)` of a block), which Swift shows only to modules compiled with the
// same package name as lifetrace's. SwiftPM names a package by its identity, which for a package depended on
// by path is its folder's name, lowercased, with what is not a letter, digit or `_` made `_`: the checkout's
// folder, whatever it is called here or in CI.
let lifetracePackageName: String = {
    let folder = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "lifetrace"
    var name = String(folder.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    if name.first?.isNumber ?? true { name = "_" + name }
    return name
}()

// Benchmarks live in their own package so the library's build never pays for them: `scripts/bench` builds
// and runs `lifetrace-bench`, `scripts/microbench` runs the package-benchmark suites under Benchmarks/.
let package = Package(
    name: "lifetrace-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "lifetrace", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "lifetrace-bench",
            dependencies: [
                .product(name: "LifetraceRecorder", package: "lifetrace"),
                .product(name: "LifetraceLiveCheck", package: "lifetrace"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceCore", package: "lifetrace"),
            ]
        ),
        .executableTarget(
            name: "LifetraceMicro",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceCore", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceRecorder", package: "lifetrace"),
                .product(name: "_LifetraceReport", package: "lifetrace"),
                .product(name: "_LifetraceSimulator", package: "lifetrace"),
            ],
            path: "Benchmarks/LifetraceMicro",
            // SwiftPM's own package name would come after this one and win: off, so that this one holds.
            packageAccess: false,
            swiftSettings: [.unsafeFlags(["-package-name", lifetracePackageName])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
