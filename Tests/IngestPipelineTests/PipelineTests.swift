import Foundation
import IngestArchive
import IngestCatalog
import IngestCore
import IngestDestinations
import IngestImaging
import IngestOutcome
import IngestTesting
import Testing

@testable import IngestPipeline

/// Watches a run and keeps what it saw.
final class RecordingObserver: RunObserver {
    var started: [String] = []
    var outcomes: [FileOutcome] = []
    /// Outcomes per event id.
    var byEvent: [String: [FileOutcome]] = [:]
    var progress = RunProgress()
    var wantsUnchangedOutcomes = true
    func started(_ path: String) { self.started.append(path) }
    func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {
        self.outcomes.append(outcome)
        self.byEvent[event.id, default: []].append(outcome)
    }
    func progressed(_ progress: RunProgress) { self.progress = progress }
}

@Suite struct PipelineTests {
    let folder = TemporaryFolder("pipeline")
    let photos: URL

    init() throws {
        try ImagingLibrary.bootstrap()
        self.photos = self.folder.appending("photos")
        try FileManager.default.createDirectory(at: self.photos, withIntermediateDirectories: true)
    }

    func photo(_ name: String, _ tags: [String: String], width: Int = 320, height: Int = 240) throws -> URL {
        let scratch = TemporaryFolder("pipeline-photo")
        let made = try Fixtures.jpeg(in: scratch, name: name, width: width, height: height, tags: tags)
        let target = self.photos.appendingPathComponent(name)
        try FileManager.default.copyItem(at: made, to: target)
        return target
    }

    func run(window: EventWindow = EventWindow(), dryRun: Bool = false, catalog: Catalog? = nil) async throws
        -> (RunSummary, RecordingObserver, Archive)
    {
        try await self.run(
            events: [Event(id: "party", name: "party", window: window)], dryRun: dryRun, catalog: catalog)
    }

    func run(
        events: [Event], dryRun: Bool = false, catalog: Catalog? = nil,
        observer: RecordingObserver = RecordingObserver()
    ) async throws -> (RunSummary, RecordingObserver, Archive) {
        let archive = try Archive(root: self.folder.appending("archive").path)
        let limits = Limits(jobs: 2)
        let context = StageContext(logger: .init(label: "test"), limits: limits)
        defer { context.shutdown() }
        let configuration = RunConfiguration(
            paths: [self.photos.path], events: events, dryRun: dryRun, limits: limits,
            timeZone: TimeZone(identifier: "UTC")!)
        let pipeline = Pipeline(
            configuration: configuration, destination: ArchiveDestination(archive: archive, io: context.io),
            catalog: catalog, context: context)
        let run = try await pipeline.run(observer: observer, stop: StopRequest())
        return (run, observer, archive)
    }

    func status(_ observer: RecordingObserver, _ name: String) -> FileStatus? {
        observer.outcomes.first { $0.path.hasSuffix("/" + name) }?.status
    }

    @Test("Stages 1-7: read, date, place in the window, dedupe, thumbnail, store, record")
    func everyStageDecides() async throws {
        _ = try self.photo(
            "in.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 22:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try self.photo(
            "late.jpg", ["EXIF:DateTimeOriginal": "2025:09:28 09:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        try FileManager.default.copyItem(
            at: self.photos.appendingPathComponent("in.jpg"), to: self.photos.appendingPathComponent("in-again.jpg"))
        try Data("shopping list".utf8).write(to: self.photos.appendingPathComponent("list.txt"))
        var truncated = try Data(contentsOf: self.photos.appendingPathComponent("in.jpg"))
        truncated.removeLast(truncated.count / 2)
        try truncated.write(to: self.photos.appendingPathComponent("broken.jpg"))

        let catalog = try Catalog(path: self.folder.appending("catalog.sqlite").path)
        let window = EventWindow(
            start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T05:00:00Z"))
        let (run, observer, archive) = try await self.run(window: window, catalog: catalog)
        let report = run.events[0]

        #expect(report.filesSeen == 5 && run.totalsAgree(report))
        #expect(observer.outcomes.count == 5)
        #expect(
            [self.status(observer, "in.jpg"), self.status(observer, "in-again.jpg")].compactMap { $0 }.sorted() == [
                .uploaded, .duplicate,
            ])
        #expect(self.status(observer, "late.jpg") == .outside)
        #expect(self.status(observer, "list.txt") == .skipped)
        // A truncated photo keeps its EXIF (it is at the start) and so its place in the window, then fails to decode.
        let broken = try #require(observer.outcomes.first { $0.path.hasSuffix("/broken.jpg") })
        #expect(broken.status == .failed)
        #expect(broken.errorCode == .decodeFailed)
        #expect(report.summaryLine.hasPrefix("1 Stored, 1 Duplicates"))

        // Thumbnails only for what was stored: one original, one pair of thumbnails.
        let archived = TestEnvironment.files(
            under: URL(fileURLWithPath: archive.root).appendingPathComponent("thumbnails"))
        #expect(archived.count == 2)
        // Stage timings were taken for the stages each file went through.
        #expect(report.timings.histogram(.thumbnail)?.count == 1)  // the failed decode took no sample
        #expect(report.timings.histogram(.read)?.count == 4)

        // Stage 7: every file that was read is in the catalog with its outcome.
        let recorded = try await catalog.outcomes(destination: "archive:" + archive.root, event: "party")
        #expect(recorded.count == 5)
        #expect(recorded[self.photos.appendingPathComponent("late.jpg").path] == .outside)
    }

    @Test("One pass, three events: each photo read once, thumbnailed once, stored in every window it falls in")
    func oneReadForEveryEvent() async throws {
        // 21:30 is inside both evening windows; 12:00 inside the day's only; 03:00 the next day in none.
        _ = try self.photo(
            "both.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 21:30:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try self.photo(
            "day.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 12:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        _ = try self.photo(
            "none.jpg", ["EXIF:DateTimeOriginal": "2025:09:28 03:00:00", "EXIF:OffsetTimeOriginal": "+00:00"])
        func window(_ start: String, _ end: String) -> EventWindow {
            EventWindow(start: RFC3339.parse(start), end: RFC3339.parse(end))
        }
        let events = [
            Event(id: "day", name: "day", window: window("2025-09-27T08:00:00Z", "2025-09-27T22:00:00Z")),
            Event(id: "party", name: "party", window: window("2025-09-27T21:00:00Z", "2025-09-28T01:00:00Z")),
            Event(id: "late", name: "late", window: window("2025-09-27T21:15:00Z", "2025-09-27T23:00:00Z")),
        ]
        let catalog = try Catalog(path: self.folder.appending("catalog.sqlite").path)
        let (run, observer, archive) = try await self.run(events: events, catalog: catalog)
        let reports = run.events

        #expect(reports.map(\.filesSeen) == [3, 3, 3])
        #expect(reports.allSatisfy { run.totalsAgree($0) })
        // Read once each, whatever the number of events: the walk started three files, not nine.
        #expect(observer.started.count == 3)
        #expect(observer.progress.done == 3)
        func status(_ event: String, _ name: String) -> FileStatus? {
            observer.byEvent[event]?.first { $0.path.hasSuffix("/" + name) }?.status
        }
        #expect(status("day", "both.jpg") == .uploaded)
        #expect(status("party", "both.jpg") == .uploaded)
        #expect(status("late", "both.jpg") == .uploaded)
        #expect(status("day", "day.jpg") == .uploaded)
        #expect(status("party", "day.jpg") == .outside)
        #expect(["day", "party", "late"].map { status($0, "none.jpg") } == [.outside, .outside, .outside])
        // Thumbnails made once for the photo in three events; its time counted in one outcome.
        let both = observer.outcomes.filter { $0.path.hasSuffix("/both.jpg") }
        #expect(both.filter { $0.timings.seconds[.thumbnail] != nil }.count == 1)
        #expect(Set(both.compactMap(\.sha256)).count == 1)
        // One read, shared: the three outcomes carry the very same read time (three reads would not).
        #expect(Set(both.compactMap { $0.timings.seconds[.read] }).count == 1)
        // The archive holds each original once, in every event it belongs to.
        #expect(
            TestEnvironment.files(under: URL(fileURLWithPath: archive.root).appendingPathComponent("originals")).count
                == 2)
        let hash = try #require(both.first?.sha256)
        for event in ["day", "party", "late"] {
            #expect(try await archive.holds(hash, inEvent: event))
        }

        // The next run opens nothing: every file is done in every event.
        let (againRun, rerun, _) = try await self.run(events: events, catalog: catalog)
        let again = againRun.events
        #expect(rerun.started.isEmpty)
        #expect(again.map { $0.count(.skipped) } == [3, 3, 3])
        #expect(rerun.progress.unchanged == 3)
        #expect(rerun.outcomes.count == 9 && rerun.outcomes.allSatisfy { $0.reason == FileOutcome.unchangedReason })

        // Watched by an observer that shows no unchanged file one by one, it counts the same.
        let counting = RecordingObserver()
        counting.wantsUnchangedOutcomes = false
        let (countedRun, _, _) = try await self.run(events: events, catalog: catalog, observer: counting)
        let counted = countedRun.events
        #expect(counting.outcomes.isEmpty)
        #expect(counting.progress == rerun.progress)
        for (report, earlier) in zip(counted, again) {
            #expect(countedRun.totalsAgree(report))
            #expect(report.details == earlier.details)
            #expect(report.closingLine == earlier.closingLine)
            #expect(report.unchanged == 3 && report.filesSeen == 3)
        }
    }

    @Test func aDryRunDecidesTheSameButStoresNothing() async throws {
        _ = try self.photo("a.jpg", ["EXIF:DateTimeOriginal": "2025:09:27 22:00:00"])
        let (run, _, archive) = try await self.run(dryRun: true)
        let report = run.events[0]
        #expect(report.count(.uploaded) == 1)
        #expect(report.dryRun)
        #expect(
            TestEnvironment.files(under: URL(fileURLWithPath: archive.root).appendingPathComponent("originals")).isEmpty
        )
        #expect(report.timings.histogram(.thumbnail) == nil)
    }

    @Test("A stop request ends the run early with every started file accounted for")
    func stopRequest() async throws {
        for index in 0..<12 { _ = try self.photo("p\(index).jpg", [:], width: 64 + index, height: 48) }
        let archive = try Archive(root: self.folder.appending("archive").path)
        let limits = Limits(jobs: 1)
        let context = StageContext(logger: .init(label: "test"), limits: limits)
        defer { context.shutdown() }
        let configuration = RunConfiguration(
            paths: [self.photos.path], events: [Event(id: "e", name: "e")], limits: limits,
            timeZone: TimeZone(identifier: "UTC")!)
        let pipeline = Pipeline(
            configuration: configuration, destination: ArchiveDestination(archive: archive, io: context.io),
            catalog: nil,
            context: context)
        let stop = StopRequest()
        final class StopAfterFirst: RunObserver {
            let stop: StopRequest
            var started: [String] = []
            var finished: [String] = []
            init(_ stop: StopRequest) { self.stop = stop }
            func started(_ path: String) { self.started.append(path) }
            func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {
                self.finished.append(outcome.path)
                self.stop.request()
            }
            func progressed(_ progress: RunProgress) {}
        }
        let observer = StopAfterFirst(stop)
        let run = try await pipeline.run(observer: observer, stop: stop)
        let report = try #require(run.events.first)
        #expect(run.interrupted)
        #expect(report.filesSeen < 12)
        #expect(run.totalsAgree(report))
        #expect(Set(observer.started) == Set(observer.finished))
    }
}

@Suite struct RunReportTests {
    func outcome(_ status: FileStatus, reason: String? = nil) -> FileOutcome {
        let verdict: Verdict =
            switch status {
            case .uploaded: .stored(note: reason)
            case .duplicate: .duplicate(reason ?? "the event already holds these bytes")
            case .outside: .outside(by: 3600)
            case .undated: .undated(reason ?? "only its modification time")
            case .failed: .failed(IngestError(.decodeFailed, reason ?? "failed"))
            case .pending: .pending(IngestError(.stopped, reason ?? "stopped"))
            case .skipped where reason == Verdict.unchangedReason: .unchanged
            case .skipped: .skipped(reason ?? "skipped")
            }
        let stamp = FileStamp(size: 10, modifiedNanoseconds: 0, inode: 1)
        return FileOutcome(FileFacts(path: "/p/\(UUID().uuidString).jpg", stamp: stamp), verdict)
    }

    @Test("The summary line shows only the non-zero counts, in the production order")
    func summaryLine() {
        var report = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        #expect(report.summaryLine == "No photos uploaded")
        report.add(self.outcome(.outside))
        #expect(report.summaryLine == "1 Outside event dates")
        for _ in 0..<5 { report.add(self.outcome(.uploaded)) }
        report.add(self.outcome(.duplicate))
        report.add(self.outcome(.duplicate))
        report.add(self.outcome(.failed, reason: "decoding failed"))
        #expect(report.summaryLine == "5 Uploaded, 2 Duplicates, 1 Outside event dates")
        #expect(
            RunSummary(events: [report]).text().contains(
                "Failed: 1 (the --report file lists every one)\n  decoding failed: 1\n    /p/"))
        // The summary line comes last, where the eye lands, with the failures beside it.
        #expect(
            RunSummary(events: [report]).text().hasSuffix("\n5 Uploaded, 2 Duplicates, 1 Outside event dates; 1 failed")
        )
        #expect(report.filesSeen == 9)
    }

    @Test("Totals agree only when every file discovery found has exactly one outcome")
    func totalsAgreeWithDiscovery() {
        var report = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        var run = RunSummary(events: [])
        run.filesDiscovered = 3
        report.add(self.outcome(.uploaded))
        report.add(self.outcome(.skipped, reason: "empty file"))
        #expect(!run.totalsAgree(report), "a file without an outcome went unnoticed")
        report.add(self.outcome(.failed, reason: "decoding failed"))
        #expect(run.totalsAgree(report))
        report.add(self.outcome(.duplicate))
        #expect(!run.totalsAgree(report), "a file with two outcomes went unnoticed")
        // A stopped run leaves files for the next one, but never ends more than it found.
        var stopped = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        var stoppedRun = RunSummary(events: [])
        stoppedRun.filesDiscovered = 3
        stoppedRun.stoppedEarly = true
        stopped.add(self.outcome(.uploaded))
        #expect(stoppedRun.totalsAgree(stopped))
    }

    @Test("Without --report, the failures point to the option that lists them, not to a file there is none of")
    func failuresPointToTheReport() {
        var report = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        report.add(self.outcome(.failed, reason: "decoding failed"))
        let without = RunSummary(events: [report]).text(perFileReport: false)
        #expect(without.hasPrefix("Failed: 1 (--report FILE lists every one)"))
        #expect(!without.contains("the --report file"))
        #expect(RunSummary(events: [report]).text(perFileReport: true).hasPrefix("Failed: 1 (the --report file"))
    }

    @Test func skippedFilesAreGroupedByReason() {
        var report = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        for _ in 0..<4 { report.add(self.outcome(.skipped, reason: "not a photo")) }
        report.add(self.outcome(.skipped, reason: "unchanged since an earlier run"), unchanged: true)
        #expect(RunSummary(events: [report]).text().contains("Skipped: 5"))
        #expect(RunSummary(events: [report]).text().contains("  not a photo: 4 ("))
        #expect(RunSummary(events: [report]).text().contains("  unchanged since an earlier run: 1"))
        #expect(report.unchanged == 1)
    }

    @Test("Failures are grouped by what went wrong, with a count and three examples each, not listed one by one")
    func failuresAreGroupedByReason() {
        var report = RunReport(destination: "d", event: Event(id: "e", name: "e"), dryRun: false)
        var decodeFailures: [String] = []
        for index in 0..<40 {
            let outcome = self.outcome(.failed, reason: "decoding failed: VipsJpeg: \(index) extraneous bytes")
            decodeFailures.append("    \(outcome.path): VipsJpeg: \(index) extraneous bytes")
            report.add(outcome)
        }
        for _ in 0..<2 {
            report.add(self.outcome(.failed, reason: "reading the image header failed: Bogus marker length"))
        }
        let lines = RunSummary(events: [report]).text().split(separator: "\n")
        #expect(lines.first == "Failed: 42 (the --report file lists every one)")
        #expect(lines.contains("  decoding failed: 40") && lines.contains("  reading the image header failed: 2"))
        // Three examples for the large group (with their details) and an ellipsis; both of the small one.
        #expect(lines.filter { $0.hasPrefix("    /p/") }.count == 5)
        // The examples are the first in sorted order, not in the order the files ended: the same files, the same text.
        let shown = lines.drop { $0 != "  decoding failed: 40" }.dropFirst().prefix(3).map(String.init)
        #expect(shown == Array(decodeFailures.sorted().prefix(3)))
        #expect(lines.filter { $0 == "    …" }.count == 1)
        #expect(lines.last == "No photos uploaded; 42 failed")
    }

    @Test("The summary says what happened: Uploaded to a server, Stored in the archive, Would … in a dry run")
    func summaryWording() {
        func line(_ destination: String, dryRun: Bool) -> String {
            var report = RunReport(destination: destination, event: Event(id: "e", name: "e"), dryRun: dryRun)
            report.add(self.outcome(.uploaded))
            return report.summaryLine
        }
        #expect(line("server:http://127.0.0.1:8080", dryRun: false) == "1 Uploaded")
        #expect(line("archive:/srv/archive", dryRun: false) == "1 Stored")
        #expect(line("server:http://127.0.0.1:8080", dryRun: true) == "1 Would upload")
        #expect(line("archive:/srv/archive", dryRun: true) == "1 Would store")
        #expect(
            RunReport(destination: "archive:/a", event: Event(id: "e", name: "e"), dryRun: true).summaryLine
                == "Nothing to store")
    }

    @Test func percentilesComeFromTheHistogram() {
        var histogram = LatencyHistogram()
        for millisecond in 1...100 { histogram.add(Double(millisecond) / 1_000) }
        let p50 = histogram.percentile(0.5)!
        let p95 = histogram.percentile(0.95)!
        #expect(p50 > 0.048 && p50 < 0.054)
        #expect(p95 > 0.093 && p95 < 0.1)
        #expect(LatencyHistogram().percentile(0.5) == nil)
    }
}
