import RepLedgerCore

/// The simulation's one source of choices: the core's SplitMix64 from the seed, so
/// that a seed replays every choice (faults, commands, interleavings) in the same order.
struct SimulationRandom {
    private var generator: SplitMix

    init(seed: UInt64) { generator = SplitMix(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A number in `range`, both ends included.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}
