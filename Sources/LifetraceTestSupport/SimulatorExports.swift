// Tests draw random cases from the simulator's seedable generator, `SplitMix64`, and simulate traces: the
// simulator is re-exported to every test target.
@_exported public import LifetraceSimulator
