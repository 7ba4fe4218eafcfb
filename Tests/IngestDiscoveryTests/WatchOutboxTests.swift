import AsyncAlgorithms
import IngestCore
import Testing

@testable import IngestDiscovery

/// The watch puts batches and never waits; the sender takes them in order, waiting for the next,
/// and ends once the outbox is finished and empty.
@Suite struct WatchOutboxTests {
    static func batch(_ path: String) -> DiscoveryBatch {
        DiscoveryBatch(items: [.problem(path: path, status: .skipped, reason: "test")], isLast: false)
    }

    @Test("Batches put before and while the sender waits reach the channel in order; finish ends it")
    func deliversInOrder() async {
        let outbox = WatchOutbox()
        let channel = AsyncChannel<DiscoveryBatch>()
        // Put with nobody taking: the watch does not wait.
        for index in 0..<3 { outbox.put(Self.batch("/in/\(index)")) }
        #expect(outbox.count == 3)
        async let delivered: Void = outbox.deliver(into: channel)
        var received: [String] = []
        var iterator = channel.makeAsyncIterator()
        for _ in 0..<3 { if let batch = await iterator.next() { received.append(Self.path(batch)) } }
        // The sender now waits for a batch: one put is handed over at once.
        outbox.put(Self.batch("/in/3"))
        if let batch = await iterator.next() { received.append(Self.path(batch)) }
        outbox.finish()
        await delivered
        #expect(received == ["/in/0", "/in/1", "/in/2", "/in/3"])
        // Put after the finish: dropped, never delivered.
        outbox.put(Self.batch("/in/4"))
        #expect(outbox.count == 0)
        #expect(await outbox.next() == nil)
    }

    static func path(_ batch: DiscoveryBatch) -> String {
        if case .problem(let path, _, _) = batch.items.first { path } else { "" }
    }
}
