import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestReport
import IngestTesting
import Testing

/// `run --html` and `photoingest report`: the page a person looks at after a bulk import, loaded
/// in headless Chromium.
@Suite struct ReportPageTests {
    static let window = ["--event", "Party", "--from", "2025-09-27T21:00:00Z", "--until", "2025-09-28T05:00:00Z"]

    /// `data-status="…" data-count="N"` of the page's first event.
    static func counts(_ dom: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        let pattern = try! NSRegularExpression(pattern: #"data-status="([a-z]+)" data-count="([0-9]+)""#)
        for match in pattern.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)) {
            let status = String(dom[Range(match.range(at: 1), in: dom)!])
            if counts[status] == nil { counts[status] = Int(dom[Range(match.range(at: 2), in: dom)!]) }
        }
        return counts
    }

    /// The seconds outside the window of the outside section's tiles, in page order.
    static func outsideOrder(_ dom: String) -> [Int] {
        guard let start = dom.range(of: #"id="e1-outside""#),
            let end = dom.range(of: "</section>", range: start.upperBound..<dom.endIndex)
        else { return [] }
        let section = String(dom[start.upperBound..<end.lowerBound])
        let pattern = try! NSRegularExpression(pattern: #"data-outside-seconds="([0-9]+)""#)
        return pattern.matches(in: section, range: NSRange(section.startIndex..., in: section)).map {
            Int(section[Range($0.range(at: 1), in: section)!])!
        }
    }

    @Test(
        "The HTML report of a real run loads in Chromium without a console message; its counts are the run's, outside photos nearest first, file names escaped"
    )
    func reportInChromium() throws {
        let photos = TemporaryFolder("report-photos")
        let corpus = try Fixtures.corpus(count: 40, seed: 19, megapixels: 0.2, in: photos)
        // A file name that is markup if not escaped.
        let hostile = corpus.appendingPathComponent(#"<i id="x">party & 'friends'.jpg"#)
        try FileManager.default.copyItem(
            at: TestEnvironment.repository.appendingPathComponent("samples/IMG_0002.jpg"), to: hostile)
        let cli = CommandLine("report-page")
        let html = cli.folder.appending("report.html")
        let run = try cli.ingest(
            [TestEnvironment.repository.appendingPathComponent("samples"), corpus],
            Self.window + ["--timezone", "America/Los_Angeles", "--html", html.path])
        #expect(run.status == 0, "\(run.result.stderr.suffix(1_500))")
        let runCounts = try #require(run.summary?.event?.counts)
        #expect(runCounts.outside >= 3 && runCounts.uploaded >= 3, "\(runCounts)")

        let artifacts = TestEnvironment.repository.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("report.png")
        try? FileManager.default.removeItem(at: screenshot)
        let page = try Chromium.load(html, screenshot: screenshot)
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(((try? FileManager.default.attributesOfItem(atPath: screenshot.path))?[.size] as? Int ?? 0) > 10_000)

        // The counts shown are the run's, and the page shows the run's summary line.
        let shown = Self.counts(page.dom)
        for status in FileStatus.allCases where status != .pending || runCounts[status] > 0 {
            let count = runCounts[status]
            #expect(shown[status.rawValue] == count, "\(status): page \(shown[status.rawValue] ?? -1), run \(count)")
        }
        #expect(page.dom.contains(try #require(run.summary?.event?.closingLine)))
        // Outside photos nearest the window first, every one of them listed.
        let order = Self.outsideOrder(page.dom)
        #expect(order.count == runCounts.outside)
        #expect(order == order.sorted(), "\(order)")
        // The name is text: no element came of it, and it is shown.
        #expect(!page.dom.contains(#"<i id="x">"#))
        #expect(page.dom.contains("&lt;i id=\"x\"&gt;party &amp; 'friends'.jpg"))
        // Stored photos and duplicates show the archive's thumbnail, which is there; outside ones,
        // which the archive does not hold, an embedded one.
        let pictures = page.dom.components(separatedBy: #"data-src=""#).dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        // The page's script made the pictures of the tiles near the screen: the first is shown.
        let made = page.dom.components(separatedBy: #"class="picture shown""#).count - 1
        #expect(made > 0 && made == page.dom.components(separatedBy: #"<img src=""#).count - 1)
        let referenced = pictures.filter { $0.hasPrefix("file://") }
        #expect(referenced.count == runCounts.uploaded + runCounts.duplicate)
        #expect(pictures.filter { $0.hasPrefix("data:image/jpeg;base64,") }.count == runCounts.outside)
        for picture in referenced {
            let path = try #require(URL(string: picture)?.path)
            #expect(path.hasPrefix(cli.archive.path + "/thumbnails/200/"), "\(picture)")
            #expect(FileManager.default.fileExists(atPath: path), "\(picture)")
        }

        // A re-run finds every file unchanged: its page still shows the event, not "unchanged".
        let rerunPage = cli.folder.appending("rerun.html")
        let rerun = try cli.ingest(
            [TestEnvironment.repository.appendingPathComponent("samples"), corpus],
            Self.window + ["--timezone", "America/Los_Angeles", "--html", rerunPage.path])
        #expect(rerun.status == 0)
        #expect(rerun.count("uploaded") == 0)
        let rerunDOM = try Chromium.load(rerunPage).dom
        #expect(Self.counts(rerunDOM) == shown)
        // The run's line and the catalog's state are two things, each named as what it is.
        #expect(
            rerunDOM.contains("This run:</b> <span data-summary=\"\">No photos stored"), "\(rerunDOM.prefix(3_000))")
        #expect(rerunDOM.contains("The event in the catalog after this run, files earlier runs did included:"))
        #expect(Self.outsideOrder(rerunDOM) == order)

        // The first run drawn again from the catalog, found where the config file says: the same
        // counts and order.
        let config = cli.folder.appending("config/photoingest")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("catalog: \(cli.catalog.path)\n".utf8).write(to: config.appendingPathComponent("config.yaml"))
        let again = cli.folder.appending("again.html")
        let report = try cli.run(["report", "--html", again.path, "--run", "1"])
        #expect(report.status == 0, "\(report.stderr)")
        let redrawn = try Chromium.load(again)
        #expect(redrawn.console.isEmpty, "\(redrawn.console)")
        #expect(Self.counts(redrawn.dom) == shown)
        #expect(Self.outsideOrder(redrawn.dom) == order)
    }

    @Test(
        "Without an archive the thumbnails are embedded, at most --thumbnails of them, and the page says how many it left out"
    )
    func embeddedThumbnails() throws {
        let server = try ReferenceServer()
        _ = try server.addEvent(name: "Party", start: "2025-09-27T21:00:00Z", end: "2025-09-28T05:00:00Z")
        let cli = CommandLine("report-embedded")
        let run = try cli.ingest(
            [TestEnvironment.repository.appendingPathComponent("samples")],
            ["--server", server.url, "--timezone", "America/Los_Angeles"],
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(run.status == 0, "\(run.result.stderr.suffix(1_500))")
        let html = cli.folder.appending("report.html")
        let report = try cli.run(["report", cli.catalog.path, "--html", html.path, "--thumbnails", "3"])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try Chromium.load(html)
        #expect(page.console.isEmpty, "\(page.console)")
        let embedded = page.dom.components(separatedBy: #"data-src="data:image/jpeg;base64,"#).count - 1
        #expect(embedded == 3)
        let pictured = (run.count("uploaded") + run.count("duplicate") + run.count("outside"))
        #expect(page.dom.contains("\(pictured - 3) photos are shown without a picture"), "\(pictured)")
        #expect(!page.dom.contains("file://"))
    }

    /// The titles of the first timeline's marks, sorted: what each mark stands for. Of two files
    /// with the same bytes the one read first is stored and the other a duplicate, and shards read
    /// in another order: those two words are one here (the counts are compared on their own).
    static func markTitles(_ dom: String) -> [String] {
        guard let start = dom.range(of: #"<svg class="timeline""#),
            let end = dom.range(of: "</svg>", range: start.upperBound..<dom.endIndex)
        else { return [] }
        let timeline = String(dom[start.upperBound..<end.lowerBound])
        return timeline.components(separatedBy: "<title>").dropFirst().map {
            String($0.prefix { $0 != "<" }).replacingOccurrences(of: ": duplicate", with: ": uploaded")
        }.sorted()
    }

    @Test(
        "One report over a 4-way sharded import's catalogs: the counts, the page and the timeline of one unsharded run; a shard not run is named"
    )
    func shardedImport() throws {
        let photos = TemporaryFolder("report-shards-photos")
        let corpus = try Fixtures.corpus(count: 40, seed: 23, megapixels: 0.2, in: photos)
        let paths = [TestEnvironment.repository.appendingPathComponent("samples").path, corpus.path]
        let options = Self.window + ["--timezone", "America/Los_Angeles"]

        let whole = CommandLine("report-unsharded")
        let wholePage = whole.folder.appending("whole.html")
        let unsharded = try whole.ingest(paths.map { URL(fileURLWithPath: $0) }, options + ["--html", wholePage.path])
        #expect(unsharded.status == 0, "\(unsharded.result.stderr.suffix(1_500))")
        let expected = try #require(unsharded.summary?.event)
        #expect(expected.counts.uploaded > 10 && expected.counts.outside > 0, "\(expected.counts)")

        let cli = CommandLine("report-sharded")
        let state = cli.folder.appending("state")
        func shard(_ index: Int) throws {
            let result = try cli.run(
                ["run"] + paths + options + [
                    "--archive", cli.archive.path, "--catalog",
                    state.appendingPathComponent("catalog-\(index).sqlite").path,
                    "--shard", "\(index)/4",
                ])
            #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
        }
        for index in [0, 1, 3] { try shard(index) }
        // Shard 2 has not run: the report sums three and names it.
        let early = try cli.run(["report", state.path])
        #expect(early.status == 0, "\(early.stderr)")
        #expect(early.stdout.contains("Shard 2 of 4, \(state.path)/catalog-2.sqlite: has not run (no catalog there)"))
        #expect(early.stdout.contains("(the sum of 3 of 4 shards)"), "\(early.stdout)")

        try shard(2)
        let html = cli.folder.appending("import.html")
        let report = try cli.run(["report", state.path + "/catalog-*.sqlite", "--html", html.path, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(report.stdout.utf8))
        #expect(summary.complete)
        #expect(summary.parts.map(\.shard) == ["0/4", "1/4", "2/4", "3/4"])
        let event = try #require(summary.events.first)
        #expect(summary.events.count == 1)
        #expect(event.counts == expected.counts)
        #expect(event.files == expected.files)
        #expect(event.closingLine == expected.closingLine)
        #expect(summary.inCatalogs.map(\.counts) == [expected.counts])

        // The page: the unsharded run's counts and timeline, every shard listed as finished.
        let page = try Chromium.load(html)
        #expect(page.console.isEmpty, "\(page.console)")
        let wholeDOM = try Chromium.load(wholePage).dom
        #expect(Self.counts(page.dom) == Self.counts(wholeDOM))
        #expect(Self.counts(page.dom)["uploaded"] == expected.counts.uploaded)
        #expect(page.dom.contains("These runs:</b> <span data-summary=\"\">\(expected.closingLine)</span>"))
        #expect(page.dom.components(separatedBy: #"<li data-part-state="finished""#).count - 1 == 4)
        let marks = Self.markTitles(page.dom)
        #expect(!marks.isEmpty && marks == Self.markTitles(wholeDOM))
        #expect(Self.outsideOrder(page.dom) == Self.outsideOrder(wholeDOM))
    }
}
