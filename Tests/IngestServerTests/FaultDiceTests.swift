import Testing

@testable import IngestServer

/// The chance behind injected faults: seeded, so that a drill that went wrong can be run again.
@Suite struct FaultDiceTests {
    func draws(_ seed: UInt64, rate: Double = 0.3) -> [Bool] {
        let dice = FaultDice(seed: seed)
        return (0..<1_000).map { _ in dice.roll(rate) }
    }

    @Test("The same --fault-seed draws the same faults, another seed others, at the rate asked")
    func sameSeedSameFaults() {
        #expect(self.draws(42) == self.draws(42))
        #expect(self.draws(42) != self.draws(43))
        let share = Double(self.draws(7).filter { $0 }.count) / 1_000
        #expect((0.25...0.35).contains(share), "\(share)")
        #expect(!self.draws(7, rate: 0).contains(true))
        #expect(!self.draws(7, rate: 1).contains(false))
    }
}
