// swift-tools-version:6.1
// 6.1, not 6.0: swift-system 1.8.1 (below) declares swift-tools-version 6.1 in its own manifest, so no older
// toolchain can resolve this package whatever this line says. This manifest itself needs 6.0 (Swift 6 language
// mode by default); it uses nothing 6.1 added (no traits).

import PackageDescription

let package = Package(
    name: "lifetrace",
    // The minimums are those of Swift's `Duration`, which the recorder's public configuration takes
    // (`RecorderConfiguration.flushInterval`, `heartbeatInterval`, `maxSpanHold`): macOS 13, iOS 16, tvOS 16,
    // watchOS 9; visionOS 1 is its first release. Nothing else needs as much: `os.Logger` (the recorder's
    // unified-log mirror) needs macOS 11 / iOS 14 / tvOS 14 / watchOS 7, `Date.formatted(.iso8601)` (`lifetrace
    // info`) macOS 12, and swift-system builds for every Apple platform with no minimum of its own.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // The semantically versioned surface: what an app, its tests or a service links (the recorder, the testing
    // assertions, the live check, and LifetraceServiceLifecycle below), and the modules whose types their
    // signatures expose (Core, Format, Analysis).
    products: [
        .library(name: "LifetraceRecorder", targets: ["LifetraceRecorder"]),
        .library(name: "LifetraceTesting", targets: ["LifetraceTesting"]),
        .library(name: "LifetraceLiveCheck", targets: ["LifetraceLiveCheck"]),
        .library(name: "LifetraceCore", targets: ["LifetraceCore"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
        .executable(name: "lifetrace", targets: ["lifetrace"]),
        // No promise: the command line's stages, for Benchmarks/ and Fuzz/ (as swift-nio marks its own with `_`).
        .library(name: "_LifetraceZstd", targets: ["LifetraceZstd"]),
        .library(name: "_LifetraceSimulator", targets: ["LifetraceSimulator"]),
        .library(name: "_LifetraceReport", targets: ["LifetraceReport"]),
        .library(name: "_LifetraceImport", targets: ["LifetraceImport"]),
        .library(name: "_LifetraceSummary", targets: ["LifetraceSummary"]),
        .library(name: "_LifetraceChecking", targets: ["LifetraceChecking"]),
        // The live check's demo (Examples/LiveCheckDemo), a program to run, not to link.
        .executable(name: "LiveCheckDemo", targets: ["LiveCheckDemo"]),
    ],
    // What an app that links only LifetraceRecorder or LifetraceTesting need not resolve: with `traits: []` on its
    // `.package` line, SwiftPM 6.2 and later resolve swift-system alone (scripts/check-app-link checks it).
    traits: [
        .trait(
            name: "CommandLine",
            description:
                "The lifetrace command line (swift-argument-parser) and the tests' Perfetto reference (swift-protobuf)."
        ),
        .trait(
            name: "ServiceLifecycle",
            description: "LifetraceServiceLifecycle and its example service (swift-service-lifecycle, swift-log)."),
        .default(enabledTraits: ["CommandLine", "ServiceLifecycle"]),
    ],
    dependencies: [
        // File descriptors with typed errors (`FileDescriptor`, `Errno`) for LifetraceFormat's file I/O, so that
        // what an app links makes no C library call of its own; Swift and C sources built with the app, for
        // every Apple platform, Linux and Windows, with nothing installed.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The command line's alone (trait CommandLine): an app that links LifetraceRecorder never builds them.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `swift package generate-documentation`: the DocC catalogues of the libraries users link (a plugin only;
        // nothing it brings is linked into a product).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
        // Locks, thread-local slots, worker threads and the one pipeline that reads on more than one thread;
        // internal to the package. The package's threads code (pthreads), platform code as a whole.
        .target(name: "LifetraceConcurrency"),
        // Stage 2: the `.lifetrace` binary format and JSON Lines, streaming readers and writers, in Swift alone
        // (stored zstd frames; files through swift-system's `FileDescriptor`); libzstd's compression plugs in from
        // LifetraceZstd.
        .target(
            name: "LifetraceFormat",
            dependencies: [
                "LifetraceCore", "LifetraceConcurrency", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(name: "LifetraceZstd", dependencies: ["LifetraceFormat", "CZstd"]),
        // Stage 1: a model of the iOS lifecycle that writes realistic traces, with ground truth and faults.
        .target(name: "LifetraceSimulator", dependencies: ["LifetraceCore"]),
        // Stage 3: the one-pass streaming analyzer, events in and findings out: lifecycle models as data, rules,
        // budgets, inference. Reads stored frames in Swift; the command line plugs in libzstd's codec, so anything
        // that embeds the analyzer (LifetraceTesting in an app's test target, the live check) needs no C library.
        .target(name: "LifetraceAnalysis", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // Stage 3 as the command line runs it: the files an analysis is set up from (`--config`, `--models`,
        // `--baseline`, with their size limits) and `check`'s traces analyzed on every core.
        .target(
            name: "LifetraceChecking",
            dependencies: [
                "LifetraceAnalysis", "LifetraceConcurrency", "LifetraceCore", "LifetraceFormat",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Stage 3, many traces: summary rows (one versioned, typed row shared by `summarize`, which writes them, and
        // `compare`, which reads them back), the pipeline that summarizes traces on every core, and `compare`'s
        // statistics.
        .target(
            name: "LifetraceSummary",
            dependencies: [
                "LifetraceAnalysis", "LifetraceChecking", "LifetraceConcurrency", "LifetraceCore", "LifetraceFormat",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // What an app links in its debug builds: the analyzer fed from the recorder as it records, its findings
        // reported at once (standard error, Xcode's runtime issues, the unified log); compiled out in release.
        // Swift alone: no libzstd.
        .target(
            name: "LifetraceLiveCheck",
            dependencies: ["LifetraceAnalysis", "LifetraceConcurrency", "LifetraceCore", "LifetraceRecorder"]
        ),
        // The live check's demonstration (Examples/LiveCheckDemo): the recorder driven through lifecycle
        // scenarios, legal and not, the findings printed as they happen. Links what an app links, no libzstd.
        .executableTarget(
            name: "LiveCheckDemo",
            dependencies: ["LifetraceLiveCheck", "LifetraceRecorder", "LifetraceCore"],
            path: "Examples/LiveCheckDemo/Sources/LiveCheckDemo"
        ),
        // What an app's unit and UI tests link: a trace the app wrote, read and checked, with assertions for
        // Swift Testing and XCTest; no libzstd.
        .target(
            name: "LifetraceTesting",
            dependencies: [
                "LifetraceAnalysis", "LifetraceCore", "LifetraceFormat", "LifetraceLiveCheck", "LifetraceRecorder",
            ]
        ),
        // Stage 4: timelines as self-contained HTML and terminal text, and exports at full fidelity: Perfetto's
        // protobuf trace, written field by field, and Chrome JSON.
        .target(
            name: "LifetraceReport",
            dependencies: [
                "LifetraceAnalysis", "LifetraceConcurrency", "LifetraceCore", "LifetraceFormat", "LifetraceSummary",
            ]
        ),
        // Stage 1: lifecycle traces derived from unified-log captures of apps nobody instrumented: the parsing and
        // deriving alone, lines in and events out, no file or process (LifetraceIngest, below, feeds it and writes).
        .target(name: "LifetraceImport", dependencies: ["LifetraceCore", "LifetraceFormat"]),
        // Stage 1: the in-process recorder an instrumented app links.
        // Its privacy manifest declares the required-reason APIs of everything it links (Apple, "Describing use
        // of required reason API"); a test fails when the code uses one the manifest lacks.
        .target(
            name: "LifetraceRecorder",
            dependencies: ["LifetraceCore", "LifetraceFormat", "LifetraceConcurrency"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Stage 1, for the command line: the streams around the derivations — live JSON Lines recorded (`record`),
        // unified-log captures read from files and pipes (`import`, `import --live`) and handed to LifetraceImport —
        // written through the recorder, compressed with libzstd.
        .target(
            name: "LifetraceIngest",
            dependencies: [
                "LifetraceConcurrency", "LifetraceCore", "LifetraceFormat", "LifetraceImport", "LifetraceRecorder",
                "LifetraceZstd",
            ]
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
                "LifetraceChecking",
                "LifetraceSummary",
                "LifetraceReport",
                "LifetraceImport",
                "LifetraceIngest",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLine"])),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Generators and helpers shared by this package's own test targets; not a product. (What an app's tests
        // link is LifetraceTesting.)
        .target(
            name: "LifetraceTestSupport",
            dependencies: [
                "LifetraceCore", "LifetraceSimulator", "LifetraceAnalysis",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(name: "LifetraceConcurrencyTests", dependencies: ["LifetraceConcurrency"]),
        .testTarget(name: "LifetraceCoreTests", dependencies: ["LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceFormatTests",
            dependencies: ["LifetraceFormat", "LifetraceZstd", "LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceSimulatorTests",
            dependencies: ["LifetraceSimulator", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: [
                "LifetraceAnalysis", "LifetraceChecking", "LifetraceSummary", "LifetraceFormat", "LifetraceZstd",
                "LifetraceTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LifetraceSummaryTests",
            dependencies: [
                "LifetraceSummary", "LifetraceAnalysis", "LifetraceSimulator", "LifetraceFormat", "LifetraceZstd",
                "LifetraceCore", "LifetraceTestSupport",
            ]
        ),
        // Perfetto's messages as swift-protobuf generates them (from Schemas/perfetto/ by scripts/gen-perfetto-protos):
        // the reference every packet the export writes is decoded with and compared to.
        .testTarget(
            name: "LifetraceReportTests",
            dependencies: [
                "LifetraceReport", "LifetraceSummary", "LifetraceZstd", "LifetraceAnalysis", "LifetraceChecking",
                "LifetraceTestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["CommandLine"])),
            ]
        ),
        .testTarget(
            name: "LifetraceImportTests",
            dependencies: [
                "LifetraceImport", "LifetraceAnalysis", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LifetraceIngestTests",
            dependencies: [
                "LifetraceIngest", "LifetraceFormat", "LifetraceZstd", "LifetraceCore", "LifetraceImport",
                "LifetraceRecorder", "LifetraceTestSupport",
            ]
        ),
        .testTarget(
            name: "LifetraceTestingTests",
            dependencies: ["LifetraceTesting", "LifetraceRecorder", "LifetraceCore", "LifetraceTestSupport"]),
        .testTarget(
            name: "LifetraceLiveCheckTests",
            dependencies: [
                "LifetraceLiveCheck", "LifetraceAnalysis", "LifetraceRecorder", "LifetraceCore", "LifetraceFormat",
                "LifetraceTestSupport", "LiveCheckDemo",
            ]
        ),
        // No libzstd: the recorder's tests also run in an iOS Simulator (.github/workflows/apple.yml).
        .testTarget(
            name: "LifetraceRecorderTests",
            dependencies: [
                "LifetraceRecorder", "LifetraceConcurrency", "LifetraceFormat", "LifetraceAnalysis", "LifetraceImport",
                "LifetraceTestSupport",
            ]),
        .testTarget(
            name: "LifetraceCheckingTests",
            dependencies: [
                "LifetraceChecking", "LifetraceAnalysis", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport",
            ]),
        .testTarget(
            name: "lifetraceTests",
            dependencies: [
                "lifetrace", "LifetraceFormat", "LifetraceZstd", "LifetraceTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Fixtures"]
        ),
    ]
)

// A Swift service's lifecycle recorded: LifetraceServiceLifecycle links swift-server's swift-service-lifecycle, whose
// manifest — and those of swift-log and swift-async-algorithms, which it brings — needs swift-tools-version 6.2. So
// it is declared only to a toolchain that reads 6.2 manifests: with an older one (Xcode 16) the package resolves and
// builds exactly as before; with any, an app that links LifetraceRecorder never builds them, and with the trait
// ServiceLifecycle off (`traits: []`) does not resolve them either.
#if compiler(>=6.2)
/// swift-service-lifecycle's products and swift-log's, for the targets of the trait ServiceLifecycle.
let serviceLifecycle: [Target.Dependency] =
    ["ServiceLifecycle", "UnixSignals"].map {
        .product(name: $0, package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"]))
    } + [.product(name: "Logging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"]))]
package.dependencies += [
    // `ServiceGroup`, graceful shutdown and Unix signals, for LifetraceServiceLifecycle alone.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The logger a `ServiceGroupConfiguration` takes.
    .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
]
package.products.append(.library(name: "LifetraceServiceLifecycle", targets: ["LifetraceServiceLifecycle"]))
package.targets += [
    // What a Swift service links: the services of its ServiceGroup recorded — start, readiness, graceful shutdown
    // with its signal, stop, and the process's exit — through the process's recorder. No libzstd.
    .target(
        name: "LifetraceServiceLifecycle",
        dependencies: [
            "LifetraceRecorder", "LifetraceCore", "LifetraceFormat", "LifetraceConcurrency",
        ] + serviceLifecycle
    ),
    // The example service of Examples/ServiceExample (a package of its own, which depends on lifetrace by path),
    // built here too so that the tests run it as a real process.
    .executableTarget(
        name: "ServiceExample",
        dependencies: ["LifetraceServiceLifecycle"] + serviceLifecycle,
        path: "Examples/ServiceExample/Sources/ServiceExample"
    ),
    // The library in process, and the example service as a real process sent SIGTERM (and SIGKILL), recorded by the
    // built lifetrace, its trace checked by lifetrace's commands run in process.
    .testTarget(
        name: "LifetraceServiceLifecycleTests",
        dependencies: [
            "LifetraceServiceLifecycle", "LifetraceRecorder", "LifetraceAnalysis", "LifetraceFormat", "LifetraceCore",
            "LifetraceTestSupport", "ServiceExample", "lifetrace",
        ] + serviceLifecycle
    ),
]
#endif

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
