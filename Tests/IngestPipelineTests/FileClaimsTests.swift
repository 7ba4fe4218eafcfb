import IngestCore
import IngestHashing
import Testing

@testable import IngestPipeline

/// One file's claims on its bytes: each taken once, each settled once, whatever the order.
@Suite struct FileClaimsTests {
    let hash = ContentHasher.hash(Array("photo".utf8))
    let events = ["a", "b", "c"].map { Event(id: $0, name: $0, window: EventWindow()) }

    func stage() -> DedupeStage {
        DedupeStage(hashes: Dictionary(uniqueKeysWithValues: self.events.map { ($0.id, HashSet(known: [])) }))
    }

    @Test("A claim is held where the bytes are new, and a duplicate's reason is given where they are not")
    func claimsWhereNew() async throws {
        let dedupe = self.stage()
        let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
        defer { context.shutdown() }
        // Event b already holds the bytes: another file of the run stored them there.
        _ = try await dedupe.hashes["b"]!.claim(self.hash)
        dedupe.hashes["b"]!.stored(self.hash)
        var claims = FileClaims(hash: self.hash, events: self.events, dedupe: dedupe)
        #expect(try await claims.claim(0, context: context) == nil)
        #expect(try await claims.claim(1, context: context) == "another file of this run has the same bytes")
        #expect(try await claims.claim(2, context: context) == nil)
        #expect(claims.held == [0, 2])
    }

    @Test("Settling stores or releases each claim once: a second settle, or one of a claim not held, does nothing")
    func settlesOnce() async throws {
        let dedupe = self.stage()
        let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
        defer { context.shutdown() }
        var claims = FileClaims(hash: self.hash, events: self.events, dedupe: dedupe)
        for index in 0..<3 { _ = try await claims.claim(index, context: context) }
        claims.settle(1, stored: true)
        claims.settle(1, stored: false)
        #expect(claims.held == [0, 2])
        claims.settleAll(stored: false)
        #expect(claims.isEmpty)
        // Stored in b; released in a and c, where the next file with the bytes claims them afresh.
        #expect(try await dedupe.hashes["b"]!.holds(self.hash))
        #expect(try await dedupe.hashes["a"]!.claim(self.hash) == .claimed)
        #expect(try await dedupe.hashes["c"]!.claim(self.hash) == .claimed)
    }
}
