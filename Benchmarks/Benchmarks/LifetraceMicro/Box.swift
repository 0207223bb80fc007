/// A value a benchmark's setup makes and its iterations use: benchmarks run one at a time, on one thread.
final class Box<Value>: @unchecked Sendable {
    var value: Value?
}
