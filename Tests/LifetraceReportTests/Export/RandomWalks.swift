import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The random walks a suite's tests load, each written once for the whole suite: the walk
/// `lifetrace simulate --scenario random --seed 42 --events N` writes, in one temporary directory that is removed
/// when the suite ends.
///
/// A suite opts in with the trait ``Scope``; its tests get a walk from ``current``.
actor RandomWalks {
    /// The walks of the suite being run, `nil` outside a suite with the trait ``Scope``.
    @TaskLocal static var current: RandomWalks?

    /// Where the walks are written; removed with the last reference to it.
    private let directory = TemporaryDirectory()
    /// Every walk asked for, by its number of events: written, or being written.
    private var walks: [Int: Task<String, any Error>] = [:]

    /// The path of the walk of `events` events, written by the first test that asks for it; the others wait for it.
    func path(events: Int) async throws -> String {
        if let walk = walks[events] { return try await walk.value }
        let directory = directory
        let walk = Task.detached { try Self.write(events: events, into: directory) }
        walks[events] = walk
        return try await walk.value
    }

    /// Writes the walk of `events` events into `directory` and returns its path.
    private static func write(events: Int, into directory: TemporaryDirectory) throws -> String {
        let path = directory.file("random-\(events).lifetrace")
        try write(seed: 42, events: events, to: path)
        return path
    }

    /// Writes the random walk of `seed` with at least `events` events to `path`, in frames of about `frameBytes`
    /// bytes (the writer's default when `nil`).
    static func write(seed: UInt64, events: Int, frameBytes: Int? = nil, to path: String) throws {
        let simulator = Simulator(configuration: .init(scenario: .random, seed: seed, minimumEvents: events))
        let options = frameBytes.map { BinaryTraceWriter.Options(targetFrameBytes: $0) } ?? .init()
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: simulator.header, options: options)
        try simulator.run { try writer.append($0) }
        try writer.close()
    }

    /// Gives a suite's tests one ``RandomWalks`` for the whole suite, released (and its directory removed) once
    /// every test of the suite has run.
    struct Scope: SuiteTrait, TestScoping {
        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await RandomWalks.$current.withValue(RandomWalks()) { try await function() }
        }
    }
}
