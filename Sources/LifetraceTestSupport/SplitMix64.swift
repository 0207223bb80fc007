// Tests draw random cases from the simulator's seedable generator, `SplitMix64`.
@_exported public import LifetraceSimulator
