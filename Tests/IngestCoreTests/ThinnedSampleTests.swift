import IngestCore
import Testing

@Suite struct ThinnedSampleTests {
    @Test("Up to its limit, every value is kept, in order")
    func keepsAllBelowTheLimit() {
        var sample = ThinnedSample(limit: 100)
        for value in 0..<100 { sample.add(Double(value)) }
        #expect(sample.values == (0..<100).map(Double.init))
        #expect(sample.seen == 100)
        // One more, and every other value is kept: the first, the third, …, the one just come.
        sample.add(100)
        #expect(sample.values == stride(from: 0, through: 100, by: 2).map(Double.init))
    }

    @Test("However many values come, the sample stays under its limit and evenly spread over them")
    func staysBoundedAndEven() {
        var sample = ThinnedSample(limit: 1_000)
        for value in 0..<1_000_000 { sample.add(Double(value)) }
        #expect(sample.seen == 1_000_000)
        #expect(sample.values.count > 500 && sample.values.count <= 1_000)
        // Every value kept stands for the same number seen: equal steps from the first value.
        let step = sample.values[1] - sample.values[0]
        #expect(step == 1_024)
        #expect(sample.values.first == 0)
        #expect(zip(sample.values, sample.values.dropFirst()).allSatisfy { $1 - $0 == step })
        #expect(sample.values.last! > 1_000_000 - step - 1)
    }
}
