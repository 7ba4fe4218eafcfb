import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestOutcome
import Testing

@testable import IngestPipeline

/// Stage 7 over a catalog in memory: outcomes written in batches, what an earlier run decided
/// left as it stands, the rest written when the run ends.
@Suite struct CatalogStageTests {
    let event = Event(id: "party", name: "Party")
    let context = StageContext(logger: .init(label: "test"), limits: Limits(jobs: 1))

    func outcome(_ name: String, _ verdict: Verdict) -> FileOutcome {
        FileOutcome(
            FileFacts(
                path: "/p/\(name)", stamp: FileStamp(size: 10, modifiedNanoseconds: 0, inode: 1),
                sha256: ContentHasher.hash(Array(name.utf8)),
                capture: CaptureTime(instant: Date(timeIntervalSince1970: 1_759_006_800), source: .exifOffset)),
            verdict)
    }

    /// A stage over a catalog in memory, its run begun.
    func begun(batchSize: Int, maximumDelay: Duration) async throws -> (Catalog, CatalogStage) {
        let catalog = try Catalog.inMemory()
        let stage = CatalogStage(
            catalog: catalog, destination: "server:memory", event: self.event, batchSize: batchSize,
            maximumDelay: maximumDelay)
        try await stage.begin()
        return (catalog, stage)
    }

    @Test("A full batch is written at once; the rest when the run finishes; unchanged and walk problems never")
    func batches() async throws {
        let (catalog, stage) = try await self.begun(batchSize: 2, maximumDelay: .seconds(3_600))
        try await stage.process(self.outcome("a.jpg", .stored(note: nil)), context: self.context)
        #expect(try await catalog.outcomes(destination: "server:memory", event: "party").isEmpty)
        try await stage.process(self.outcome("b.jpg", .duplicate("held")), context: self.context)
        #expect(try await catalog.outcomes(destination: "server:memory", event: "party").count == 2)
        try await stage.process(
            self.outcome("c.jpg", .failed(IngestError(.decodeFailed, "cut short"))), context: self.context)
        // An earlier run's decision stands; a walk problem has no file to record.
        try await stage.process(self.outcome("d.jpg", .unchanged), context: self.context)
        try await stage.process(
            FileOutcome(FileFacts(path: "/p/gone", stamp: nil), .skipped("broken symbolic link")), context: self.context
        )
        try await stage.finish(summary: "3 files")
        let recorded = try await catalog.outcomes(destination: "server:memory", event: "party")
        #expect(recorded == ["/p/a.jpg": .uploaded, "/p/b.jpg": .duplicate, "/p/c.jpg": .failed])
        #expect(try await catalog.runs().map(\.summary) == ["3 files"])
    }

    @Test("A batch not full is written once it is old enough: a slow run commits as it goes")
    func oldEnough() async throws {
        let (catalog, stage) = try await self.begun(batchSize: 100, maximumDelay: .milliseconds(50))
        try await Task.sleep(for: .milliseconds(100))
        try await stage.process(self.outcome("a.jpg", .stored(note: nil)), context: self.context)
        #expect(try await catalog.outcomes(destination: "server:memory", event: "party") == ["/p/a.jpg": .uploaded])
    }
}
