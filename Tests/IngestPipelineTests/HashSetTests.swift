import IngestCore
import IngestDestinations
import IngestHashing
import Synchronization
import Testing

@testable import IngestPipeline

@Suite struct HashSetTests {
    let a = ContentHasher.hash(Array("a".utf8))
    let b = ContentHasher.hash(Array("b".utf8))

    @Test("A refresh: what the destination holds now is known; what this run stored and it now lists is forgotten")
    func refresh() async throws {
        let set = HashSet(known: [self.a])
        #expect(try await set.claim(self.b) == .claimed)
        set.stored(self.b)
        let c = ContentHasher.hash(Array("c".utf8))
        // A phone uploaded c meanwhile; the server now lists b (this run's) and c, and no longer a.
        set.refresh([self.b, c])
        #expect(try await set.claim(c) == .known)
        #expect(try await set.claim(self.b) == .known)
        #expect(try await set.claim(self.a) == .claimed, "a is no longer on the server")
    }

    @Test("A set found stale says so once; a refresh makes it current again")
    func stale() {
        let set = HashSet(known: [self.a])
        #expect(!set.takeStale())
        set.markStale()
        set.markStale()
        #expect(set.takeStale())
        #expect(!set.takeStale(), "asked once, forgotten")
        set.markStale()
        set.refresh([self.a, self.b])
        #expect(!set.takeStale())
    }

    @Test func knownClaimedAndStored() async throws {
        let set = HashSet(known: [self.a])
        #expect(try await set.claim(self.a) == .known)
        #expect(try await set.claim(self.b) == .claimed)
        set.stored(self.b)
        #expect(try await set.claim(self.b) == .claimedInRun)
    }

    @Test("holds answers for the destination's hashes and this run's stored ones, and takes no claim")
    func holdsTakesNoClaim() async throws {
        let set = HashSet(known: [self.a])
        #expect(try await set.holds(self.a))
        #expect(try await !set.holds(self.b))
        // Asking left the bytes free: the claim is still there to take, and a claim held is not a store.
        #expect(try await set.claim(self.b) == .claimed)
        #expect(try await !set.holds(self.b))
        set.stored(self.b)
        #expect(try await set.holds(self.b))
    }

    @Test(
        "A file with the same bytes as one being stored waits: the new claimant if the store fails, a duplicate if it works"
    )
    func waitersFollowTheClaimantsOutcome() async throws {
        let set = HashSet(known: [])
        #expect(try await set.claim(self.b) == .claimed)
        let answered = Mutex(0)
        let second = Task { () async throws -> HashSet.Claim in
            let claim = try await set.claim(self.b)
            answered.withLock { $0 += 1 }
            return claim
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(answered.withLock { $0 } == 0, "a waiter was answered before the first store ended")
        set.release(self.b)  // the first store failed: the waiter takes over
        #expect(try await second.value == .claimed)

        let third = Task { () async throws -> HashSet.Claim in try await set.claim(self.b) }
        try await Task.sleep(for: .milliseconds(50))
        set.stored(self.b)  // the second try worked
        #expect(try await third.value == .claimedInRun)
    }

    @Test func concurrentClaimsOfTheSameBytesHaveOneWinnerAndTheRestWait() async throws {
        let set = HashSet(known: [])
        let hash = ContentHasher.hash(Array("same".utf8))
        let claims = try await withThrowingTaskGroup(of: HashSet.Claim.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    let claim = try await set.claim(hash)
                    if claim == .claimed { set.stored(hash) }
                    return claim
                }
            }
            var all: [HashSet.Claim] = []
            for try await claim in group { all.append(claim) }
            return all
        }
        #expect(claims.filter { $0 == .claimed }.count == 1)
        #expect(claims.filter { $0 != .claimed }.count == 63)
    }

    @Test("Hashes read on first claim are read once, by the first claim, and never when nothing is claimed")
    func hashesOnFirstClaimAreReadOnce() async throws {
        let reads = Atomic(0)
        let known = self.a
        let source = HashSource.onFirstClaim {
            reads.add(1, ordering: .relaxed)
            return KnownHashes([known])
        }
        _ = HashSet(source)
        #expect(reads.load(ordering: .relaxed) == 0, "made but never claimed from: nothing read")

        let set = HashSet(source)
        let claims = try await withThrowingTaskGroup(of: HashSet.Claim.self) { group in
            for index in 0..<32 {
                // Half of them known; the others each new bytes, so that no claim waits on another.
                let hash = index.isMultiple(of: 2) ? known : ContentHasher.hash(Array("new \(index)".utf8))
                group.addTask { try await set.claim(hash) }
            }
            var all: [HashSet.Claim] = []
            for try await claim in group { all.append(claim) }
            return all
        }
        #expect(reads.load(ordering: .relaxed) == 1)
        #expect(claims.filter { $0 == .known }.count == 16)
        #expect(claims.filter { $0 == .claimed }.count == 16)
    }

    @Test("Hashes that cannot be read fail the claim with the destination's error, every time")
    func unreadableHashesFailTheClaim() async {
        let set = HashSet(
            .onFirstClaim { () async throws(IngestError) -> KnownHashes in
                throw IngestError(.archiveUnusable, "index gone")
            })
        for _ in 0..<2 {
            let error = await #expect(throws: IngestError.self) { try await set.claim(self.a) }
            #expect(error?.code == .archiveUnusable)
            #expect(error?.message.contains("index gone") == true)
        }
    }
}
