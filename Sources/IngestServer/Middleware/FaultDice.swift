import IngestCore

/// The chance behind every injected fault, drawn from one seeded generator: a drill that went
/// wrong is run again with the same `--fault-seed`. (Requests race each other, so a replay draws
/// the same sequence but may hand its numbers to requests in another order.)
public final class FaultDice: Sendable {
    private let generator: Locked<SplitMix64>

    public init(seed: UInt64) {
        self.generator = Locked(SplitMix64(seed: seed))
    }

    /// True with probability `rate`.
    func roll(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        return self.generator.withLock { Double.random(in: 0..<1, using: &$0) } < rate
    }

    func number(in range: ClosedRange<Int>) -> Int {
        self.generator.withLock { Int.random(in: range, using: &$0) }
    }
}
