import IngestCore
import IngestHashing
import Testing

@testable import IngestPipeline

/// Stage 4: a photo's bytes against the event's hash set: what the destination held, what this
/// run stored, and a claim released for the next file with the same bytes.
@Suite struct DedupeStageTests {
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))
    let event = Event(id: "party", name: "Party")
    let held = ContentHasher.hash(Array("held".utf8))
    let fresh = ContentHasher.hash(Array("fresh".utf8))

    func stage() -> DedupeStage { DedupeStage(hashes: ["party": HashSet(known: [self.held])]) }

    @Test("Bytes the destination held are a duplicate, and say so; new bytes are claimed")
    func heldOrNew() async throws {
        let stage = self.stage()
        #expect(
            try await stage.process(.init(hash: self.held, event: self.event), context: self.context)
                == .duplicate(reason: DedupeStage.heldReason))
        #expect(try await stage.process(.init(hash: self.fresh, event: self.event), context: self.context) == .new)
    }

    @Test("Stored by one file of the run, the same bytes in another are that run's duplicate")
    func storedInThisRun() async throws {
        let stage = self.stage()
        #expect(try await stage.process(.init(hash: self.fresh, event: self.event), context: self.context) == .new)
        stage.settle(self.fresh, event: self.event, stored: true)
        #expect(
            try await stage.process(.init(hash: self.fresh, event: self.event), context: self.context)
                == .duplicate(reason: "another file of this run has the same bytes"))
        #expect(await stage.holds(self.fresh, event: self.event))
    }

    @Test("A claim released (its store failed) lets the next file with those bytes claim them")
    func releasedClaim() async throws {
        let stage = self.stage()
        #expect(try await stage.process(.init(hash: self.fresh, event: self.event), context: self.context) == .new)
        stage.settle(self.fresh, event: self.event, stored: false)
        #expect(try await stage.process(.init(hash: self.fresh, event: self.event), context: self.context) == .new)
        #expect(await !stage.holds(self.fresh, event: self.event))
    }

    @Test("An event without a hash set is an error of the run's making, not a duplicate")
    func unknownEvent() async throws {
        let stage = self.stage()
        await #expect(throws: IngestError.self) {
            try await stage.process(
                .init(hash: self.fresh, event: Event(id: "other", name: "Other")), context: self.context)
        }
    }
}
