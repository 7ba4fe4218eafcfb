import AsyncAlgorithms

@testable import IngestDiscovery

extension Discovery {
    /// Every batch of a whole walk, in order.
    func batches() async -> [DiscoveryBatch] {
        let channel = AsyncChannel<DiscoveryBatch>()
        async let tally = self.walk(into: channel, shouldStop: { false })
        var batches: [DiscoveryBatch] = []
        for await batch in channel { batches.append(batch) }
        _ = await tally
        return batches
    }
}
