import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestOutcome
import IngestReport
import IngestTesting
import Testing

/// `photoingest report` over the catalogs of a sharded import: one page, one summary, and every
/// shard named with how far it got.
@Suite struct ImportReportTests {
    static let window = EventWindow(
        start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T05:00:00Z"))
    static let destination = "archive:/srv/archive"

    let folder = TemporaryFolder("import-report")

    func path(_ index: Int) -> String { self.folder.appending("catalog-\(index).sqlite").path }

    /// A shard's catalog with one run of Party recording `files` (name, status, hour of the
    /// night), finished with its summary unless `finished` is false.
    @discardableResult
    func shard(
        _ shard: String, at path: String, _ files: [(String, FileStatus, Int)], finished: Bool = true
    ) async throws -> Catalog {
        let catalog = try Catalog(path: path)
        let run = try await catalog.beginRun(
            destination: Self.destination, event: "party", eventName: "Party", shard: shard)
        let stamp = FileStamp(size: 10, modifiedNanoseconds: 1, inode: 1)
        try await catalog.record(
            files.map { name, status, hour in
                CatalogRecord(
                    path: "/photos/" + name, stamp: stamp, sha256: ContentHasher.hash(Array(name.utf8)),
                    mediaType: "image/jpeg",
                    capture: CaptureTime(
                        instant: Self.window.start!.addingTimeInterval(Double(hour) * 3_600), offsetSeconds: 0,
                        source: .exifOffset),
                    destination: Self.destination, event: "party", window: Self.window, status: status, reason: nil)
            }, run: run)
        guard finished else { return catalog }
        var counts = EventSummary.StatusCounts(atArchive: true)
        for (_, status, _) in files { counts[status] += 1 }
        let summary = try #require(
            EventSummary(
                jsonText: """
                    {"destination": "\(Self.destination)", "event": "Party", "files": \(files.count), "bytes": 100,
                     "seconds": 2, "counts": \(CompactJSON.text(counts)), "summary": "\(counts.summaryLine(dryRun: false))",
                     "closingLine": "\(counts.closingLine(dryRun: false))"}
                    """))
        try await catalog.finishRun(run, summary: summary.jsonText)
        return catalog
    }

    @Test("Two of four shards given: their counts summed, their photos on one page, the other two named")
    func missingShards() async throws {
        try await self.shard("0/4", at: self.path(0), [("a.jpg", .uploaded, 1), ("b.jpg", .outside, 9)])
        try await self.shard("1/4", at: self.path(1), [("c.jpg", .uploaded, 2), ("d.jpg", .duplicate, 3)])
        // Shard 2 ran, but its catalog is not given; shard 3 has not run.
        try await self.shard("2/4", at: self.path(2), [("e.jpg", .uploaded, 4)])

        let report = try await ImportReport.read(catalogs: [self.path(1), self.path(0)], nearEdgeMargin: 3_600)
        let parts = report.summary.parts
        #expect(parts.map(\.shard) == ["0/4", "1/4", "2/4", "3/4"])
        #expect(parts.map(\.state) == [.finished, .finished, .notGiven, .notRun])
        #expect(parts.map(\.catalog) == (0..<4).map(self.path))
        #expect(!report.summary.complete)
        let event = try #require(report.summary.events.first)
        #expect(report.summary.events.count == 1)
        #expect(event.counts.uploaded == 2 && event.counts.outside == 1 && event.counts.duplicate == 1)
        #expect(event.files == 4 && event.closingLine == "2 Stored, 1 Duplicates, 1 Outside event dates")
        // First runs: the catalogs hold what the runs did.
        #expect(report.summary.inCatalogs.map(\.counts) == [event.counts])
        #expect(report.summary.inCatalogs.first?.files == 4 && report.summary.inCatalogs.first?.event == "Party")

        let page = report.page
        #expect(page.title.hasPrefix("photoingest import in 4 shards, "))
        #expect(page.parts == parts)
        #expect(page.events.count == 1)
        #expect(
            Set(page.events[0].photos.map(\.path)) == [
                "/photos/a.jpg", "/photos/b.jpg", "/photos/c.jpg", "/photos/d.jpg",
            ])
        #expect(page.events[0].summaryLine == event.closingLine + " (the sum of 2 of 4 shards)")
        #expect(report.summary.lines.contains("Shard 3 of 4, \(self.path(3)): has not run (no catalog there)"))
        #expect(
            report.summary.lines.contains(
                "Shard 2 of 4, \(self.path(2)): not given to this report (its catalog is there)"))
    }

    @Test(
        "A shard still running is named with the run that holds it, one stopped hard as not finished; neither is counted"
    )
    func runningAndStopped() async throws {
        try await self.shard("0/2", at: self.path(0), [("a.jpg", .uploaded, 1)])
        try await self.shard("1/2", at: self.path(1), [("b.jpg", .uploaded, 2)], finished: false)
        // A given catalog that is not there is the shard its name says.
        let paths = [self.path(0), self.path(1), self.folder.appending("catalog-2.sqlite").path]

        do {
            let lock = try await RunLock(path: RunLock.path(guarding: self.path(1)), what: "the catalog", wait: false)
            let report = try await ImportReport.read(catalogs: Array(paths.prefix(2)), nearEdgeMargin: 3_600)
            #expect(report.summary.parts.map(\.state) == [.finished, .running])
            #expect(report.summary.parts[1].runningIn?.contains("pid \(getpid())") == true)
            #expect(report.summary.parts[1].line.contains("still running in the photoingest run with pid"))
            withExtendedLifetime(lock) {}
        }
        let report = try await ImportReport.read(catalogs: Array(paths.prefix(2)), nearEdgeMargin: 3_600)
        #expect(report.summary.parts.map(\.state) == [.finished, .unfinished])
        #expect(report.summary.parts[1].finishedAt == nil)
        // Its photos are shown; its counts are not in the sum.
        #expect(report.page.events[0].photos.count == 2)
        #expect(report.summary.events[0].counts.uploaded == 1)
        #expect(report.summary.inCatalogs[0].counts.uploaded == 2)
        #expect(!report.summary.complete)

        // Three given for a split of two: the third is no shard's and has not run.
        let extra = try await ImportReport.read(catalogs: paths, nearEdgeMargin: 3_600)
        #expect(extra.summary.parts.map(\.state) == [.finished, .unfinished, .notRun])
        #expect(extra.summary.parts.last?.shard == nil)
    }

    @Test("A given shard's catalog that is not there takes its place; a shard in two catalogs is said")
    func givenButAbsent() async throws {
        try await self.shard("0/3", at: self.path(0), [("a.jpg", .uploaded, 1)])
        try await self.shard("1/3", at: self.path(1), [("b.jpg", .uploaded, 2)])
        try await self.shard("1/3", at: self.folder.appending("copy-1.sqlite").path, [("b.jpg", .uploaded, 2)])
        let report = try await ImportReport.read(
            catalogs: [self.path(0), self.path(1), self.path(2), self.folder.appending("copy-1.sqlite").path],
            nearEdgeMargin: 3_600)
        #expect(report.summary.parts.map(\.shard) == ["0/3", "1/3", "1/3", "2/3"])
        #expect(report.summary.parts.last?.state == .notRun && report.summary.parts.last?.catalog == self.path(2))
        #expect(report.summary.parts.count == 4)
        #expect(report.summary.notes.count == 1 && report.summary.notes[0].hasPrefix("Shard 1/3 is in 2 catalogs"))
        #expect(report.page.notes == report.summary.notes)
    }

    @Test("Another program's database among the catalogs is named and left alone; the others are read")
    func foreignDatabase() async throws {
        try await self.shard("0/1", at: self.path(0), [("a.jpg", .uploaded, 1)])
        let zones = self.folder.appending("zones.sqlite").path
        _ = try runProgram("sqlite3", [zones, "CREATE TABLE zone (name TEXT); INSERT INTO zone VALUES ('UTC');"])
        let before = try Data(contentsOf: URL(fileURLWithPath: zones))
        let report = try await ImportReport.read(catalogs: [self.path(0), zones], nearEdgeMargin: 3_600)
        #expect(report.summary.parts.map(\.state) == [.finished, .unusable])
        #expect(report.summary.parts[1].line.hasPrefix("\(zones): not read: "), "\(report.summary.parts[1].line)")
        #expect(!report.summary.complete && report.summary.events.first?.counts.uploaded == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zones)) == before)
        // Alone, it is an error, as a single catalog always was.
        await #expect(throws: IngestError.self) {
            _ = try await ImportReport.read(catalogs: [zones], nearEdgeMargin: 3_600)
        }
    }

    @Test("One whole run's catalog: no parts listed, the run's own title, line and clock notes")
    func wholeRun() async throws {
        let catalog = try Catalog(path: self.path(0))
        let run = try await catalog.beginRun(destination: Self.destination, event: "party", eventName: "Party")
        let note =
            "Clock: Canon EOS R6 #12 looks 1 h fast (5 moments); to correct it: --clock-offset 'serial:12=-01:00'"
        try await catalog.finishRun(
            run, summary: #"{"closingLine": "No photos stored", "counts": {"stored": 0}}"#, clockNotes: [note])
        let report = try await ImportReport.read(catalogs: [self.path(0)], nearEdgeMargin: 3_600)
        #expect(report.page.parts.isEmpty && report.summary.complete)
        #expect(report.page.title.hasPrefix("photoingest run \(run), "))
        #expect(report.page.events.first?.summaryLine == "No photos stored")
        #expect(report.summary.lines == ["Party: No photos stored"])
        #expect(report.page.cameraNotes == [note])
    }
}
