import Testing

@testable import IngestDiscovery

/// The waits a watch reports: each file once, from complete to done, the last 1,024 kept.
@Suite struct WatchLatencyTests {
    @Test("p50 and p95 of the files measured; a file not watched, or finished twice, counts once or not")
    func percentiles() {
        let latency = WatchLatency()
        let start = ContinuousClock.now
        for index in 1...20 { latency.arrived("/in/\(index).jpg", at: start) }
        #expect(latency.figures.waiting == 20)
        for index in 1...20 { latency.finished("/in/\(index).jpg", at: start + .milliseconds(index * 100)) }
        latency.finished("/in/1.jpg", at: start + .seconds(60))
        latency.finished("/elsewhere.jpg", at: start + .seconds(60))
        let figures = latency.figures
        #expect(figures.measured == 20)
        #expect(figures.waiting == 0)
        #expect(figures.p50 == .milliseconds(1_000))
        #expect(figures.p95 == .milliseconds(1_900))
    }

    @Test("Only the last 1,024 waits are kept, however many files pass")
    func bounded() {
        let latency = WatchLatency()
        let start = ContinuousClock.now
        for index in 0..<3_000 {
            latency.arrived("/in/\(index)", at: start)
            // The first 2,000 wait a minute, the last 1,000 a second.
            latency.finished("/in/\(index)", at: start + (index < 2_000 ? .seconds(60) : .seconds(1)))
        }
        let figures = latency.figures
        #expect(figures.measured == 3_000)
        // Were all 3,000 kept, two thirds of them would be a minute.
        #expect(figures.p50 == .seconds(1))
        #expect(figures.p95 == .seconds(1))
    }
}
