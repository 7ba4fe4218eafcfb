import IngestCore
import Testing

@testable import IngestDiscovery

/// The watch puts batches and never waits; the sender takes them in order, waiting for the next,
/// and ends once the outbox is finished and empty.
@Suite struct WatchOutboxTests {
    static func batch(_ path: String) -> DiscoveryBatch {
        DiscoveryBatch(items: [.problem(path: path, status: .skipped, reason: "test")], isLast: false)
    }

    @Test("Batches put before and while the taker waits come out in order; take does not wait; finish ends it")
    func deliversInOrder() async {
        let outbox = WatchOutbox()
        #expect(outbox.take() == nil, "nothing put: take answers at once")
        // Put with nobody taking: the watch does not wait.
        for index in 0..<3 { outbox.put(Self.batch("/in/\(index)")) }
        #expect(outbox.count == 3)
        var received: [String] = []
        if let batch = outbox.take() { received.append(Self.path(batch)) }
        for _ in 0..<2 { if let batch = await outbox.next() { received.append(Self.path(batch)) } }
        // The taker now waits for a batch: one put is handed over at once.
        async let waited = outbox.next()
        try? await Task.sleep(for: .milliseconds(50))
        outbox.put(Self.batch("/in/3"))
        if let batch = await waited { received.append(Self.path(batch)) }
        outbox.finish()
        #expect(received == ["/in/0", "/in/1", "/in/2", "/in/3"])
        // Put after the finish: dropped, never delivered.
        outbox.put(Self.batch("/in/4"))
        #expect(outbox.count == 0)
        #expect(await outbox.next() == nil)
        #expect(outbox.take() == nil)
    }

    static func path(_ batch: DiscoveryBatch) -> String {
        if case .problem(let path, _, _) = batch.items.first { path } else { "" }
    }
}
