import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestHashing
import IngestReport
import IngestTesting
import Testing

@Suite struct ReportTests {
    static let window = EventWindow(
        start: RFC3339.parse("2025-09-27T21:00:00Z"), end: RFC3339.parse("2025-09-28T05:00:00Z"))

    static func photo(
        _ name: String, _ status: FileStatus, at time: String, source: CaptureSource = .exifOffset,
        reason: String? = nil
    ) -> ReportPhoto {
        let instant = RFC3339.parse(time)!
        let local = LocalDateTime(instant, offsetSeconds: -7 * 3_600)
        let capture = CaptureTime(
            instant: instant, localTime: local, offsetSeconds: -7 * 3_600, source: source,
            assumedZone: source == .exifAssumedZone ? "America/Los_Angeles" : nil)
        let outside = Self.window.distance(to: instant)
        return ReportPhoto(
            path: "/photos/" + name, status: status, kind: .jpeg, reason: reason, capture: capture,
            // As if another photo of the run were taken in UTC: an assumed -07:00 is then in doubt.
            outsideBy: outside, nearEdge: Self.window.nearEdge(capture, margin: 3_600, otherOffsets: [0])?.description)
    }

    @Test("The timeline maps the window onto its width, draws far photos at the edge and assumed zones as spans")
    func timeline() {
        let photos = [
            Self.photo("in.jpg", .uploaded, at: "2025-09-28T01:00:00Z"),
            Self.photo("assumed.jpg", .uploaded, at: "2025-09-28T04:30:00Z", source: .exifAssumedZone),
            Self.photo("early.jpg", .outside, at: "2025-09-27T20:30:00Z"),
            Self.photo("far.jpg", .outside, at: "2025-09-20T12:00:00Z"),
        ]
        let timeline = Timeline(window: Self.window, photos: photos.enumerated().map { ($0.offset, $0.element) })
        #expect(timeline.lanes == [.outcome(.uploaded), .outcome(.outside)])
        let start = try! #require(timeline.windowStart)
        let end = try! #require(timeline.windowEnd)
        #expect(Timeline.left < start && start < end && end <= Timeline.width)
        let marks = Dictionary(uniqueKeysWithValues: timeline.marks.map { (String($0.title.prefix { $0 != ":" }), $0) })
        #expect(marks["in.jpg"].map { start < $0.x && $0.x < end } == true)
        #expect(marks["early.jpg"].map { $0.x < start && $0.lane == 1 } == true)
        #expect(marks["far.jpg"].map { $0.x == Timeline.left } == true)
        #expect(timeline.offScale == 1)
        #expect(marks["in.jpg"]?.span == nil)
        // Any real offset could hold for the assumed zone: the span reaches past the window's end.
        let span = try! #require(marks["assumed.jpg"]?.span)
        #expect(span.lowerBound < start && span.upperBound > end)
        #expect(marks["assumed.jpg"]?.nearEdge == true)
        // The range shows the near outside photo, not a week of nothing.
        #expect(timeline.range.lowerBound <= RFC3339.parse("2025-09-27T20:30:00Z")!)
        #expect(timeline.range.lowerBound >= RFC3339.parse("2025-09-27T17:00:00Z")!)
    }

    @Test("Photos of one outcome taken close together share one mark that counts them; others keep their own")
    func timelineBins() {
        // 3,000 photos a second apart fill a few pixels of an eight-hour window, in two lanes.
        var photos = (0..<3_000).map { index in
            Self.photo(
                "p\(index).jpg", index.isMultiple(of: 2) ? .uploaded : .duplicate,
                at: RFC3339.format(RFC3339.parse("2025-09-28T01:00:00Z")!.addingTimeInterval(Double(index))))
        }
        photos.append(Self.photo("late.jpg", .uploaded, at: "2025-09-28T04:00:00Z"))
        photos.append(Self.photo("edge.jpg", .uploaded, at: "2025-09-28T01:20:00Z", source: .exifAssumedZone))
        let timeline = Timeline(window: Self.window, photos: photos.enumerated().map { ($0.offset, $0.element) })
        #expect(timeline.marks.map(\.count).reduce(0, +) == photos.count)
        #expect(timeline.marks.count < 40)
        let late = timeline.marks.first { $0.title.hasPrefix("late.jpg:") }
        #expect(late?.count == 1)
        let crowd = try! #require(timeline.marks.first { $0.tile == 0 })
        #expect(crowd.count > 50 && crowd.status == .uploaded)
        #expect(crowd.title.hasPrefix("\(crowd.count) photos, uploaded, 2025-09-28T01:00:00Z (p0.jpg) to "))
        // A ring and a span on one photo of a bin stay on the bin's mark.
        let bin = try! #require(timeline.marks.first { $0.span != nil })
        #expect(bin.nearEdge && bin.count > 1)
    }

    @Test("A timeline by camera has a row per body, each photo on its body's row, in its outcome's colour")
    func timelineByCamera() {
        var early = Self.photo("a.jpg", .uploaded, at: "2025-09-27T22:00:00Z")
        early.camera = CameraBody(make: "Canon", model: "Canon EOS R6", serial: "111")
        var late = Self.photo("b.jpg", .outside, at: "2025-09-28T06:00:00Z")
        late.camera = CameraBody(make: "Canon", model: "Canon EOS R6", serial: "222")
        var phone = Self.photo("p.jpg", .uploaded, at: "2025-09-27T22:00:00Z")
        phone.camera = CameraBody(make: "Apple", model: "iPhone 15")
        let timeline = Timeline(
            window: Self.window, photos: [(0, early), (1, late), (2, phone)], rows: .cameras)
        #expect(timeline.lanes.map(\.name) == ["Apple iPhone 15", "Canon EOS R6 #111", "Canon EOS R6 #222"])
        #expect(timeline.marks.map(\.lane) == [1, 2, 0])
        #expect(timeline.marks.map(\.status) == [.uploaded, .outside, .uploaded])
    }

    @Test("The page escapes file names and lists outside photos nearest first, with how far out")
    func page() async throws {
        let event = ReportEvent(
            name: "Party <2025>", window: Self.window, summaryLine: "2 Uploaded, 3 Outside event dates",
            photos: [
                Self.photo(#"<img src=x onerror="alert(1)">.jpg"#, .uploaded, at: "2025-09-28T01:00:00Z"),
                Self.photo("b.jpg", .uploaded, at: "2025-09-28T02:00:00Z"),
                Self.photo("far.jpg", .outside, at: "2025-09-26T12:00:00Z"),
                Self.photo("near.jpg", .outside, at: "2025-09-28T05:10:00Z"),
                Self.photo("mid.jpg", .outside, at: "2025-09-27T18:00:00Z"),
                ReportPhoto(path: "/photos/notes.txt", status: .skipped, reason: "not a photo or video"),
            ])
        let page = ReportPage(title: "A run", destination: "server:https://example.com", dryRun: false, events: [event])
        let html = await HTMLReport.render(page, thumbnails: ReportThumbnails(archiveRoot: nil, embedLimit: 0))
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;.jpg"))
        #expect(html.contains("<h2>Party &lt;2025&gt;</h2>"))
        let names = ["near.jpg", "mid.jpg", "far.jpg"].map { html.range(of: #"data-name="\#($0)""#)?.lowerBound }
        #expect(names.allSatisfy { $0 != nil })
        #expect(names[0]! < names[1]! && names[1]! < names[2]!)
        #expect(html.contains("10 min after the window closes"))
        // The files are not there to make pictures of: the tiles show the outcome's shape instead.
        #expect(!html.contains("<img "))
        #expect(html.contains(#"data-status="outside" data-count="3""#))
        #expect(html.contains("not a photo or video"))
    }

    @Test("A run over two events is drawn again from the catalog under the events' names, as it stood after that run")
    func fromCatalog() async throws {
        let folder = TemporaryFolder("report-catalog")
        let catalog = try Catalog(path: folder.appending("catalog.sqlite").path)
        let stamp = FileStamp(size: 10, modifiedNanoseconds: 1, inode: 1)
        func record(_ path: String, _ event: String, _ status: FileStatus, at time: String) -> CatalogRecord {
            CatalogRecord(
                path: path, stamp: stamp, sha256: ContentHasher.hash(Array(path.utf8)), mediaType: "image/jpeg",
                capture: CaptureTime(instant: RFC3339.parse(time)!, offsetSeconds: 0, source: .exifOffset),
                destination: "server:https://example.com", event: event, window: Self.window,
                status: status,
                reason: nil)
        }
        let party = try await catalog.beginRun(
            destination: "server:https://example.com", event: "id-1", eventName: "Party")
        let brunch = try await catalog.beginRun(
            destination: "server:https://example.com", event: "id-2", eventName: "Brunch", invocation: party)
        try await catalog.record(
            [
                record("/p/a.jpg", "id-1", .uploaded, at: "2025-09-28T01:00:00Z"),
                record("/p/b.jpg", "id-1", .outside, at: "2025-09-28T07:00:00Z"),
            ], run: party)
        try await catalog.record([record("/p/a.jpg", "id-2", .duplicate, at: "2025-09-28T01:00:00Z")], run: brunch)
        try await catalog.finishRun(
            party,
            summary:
                #"{"summary": "1 Uploaded, 1 Outside event dates", "closingLine": "1 Uploaded, 1 Outside event dates"}"#
        )
        // A later run, which decides a.jpg again (it changed, say) and meets c.jpg.
        let later = try await catalog.beginRun(
            destination: "server:https://example.com", event: "id-1", eventName: "Party")
        try await catalog.record(
            [
                record("/p/a.jpg", "id-1", .uploaded, at: "2025-09-28T01:00:00Z"),
                record("/p/c.jpg", "id-1", .uploaded, at: "2025-09-28T02:00:00Z"),
            ], run: later)

        let path = folder.appending("catalog.sqlite").path
        let page = try await ImportReport.read(catalogs: [path], run: brunch, nearEdgeMargin: 3_600).page
        #expect(page.events.map(\.name) == ["Party", "Brunch"])
        #expect(page.events[0].summaryLine == "1 Uploaded, 1 Outside event dates")
        #expect(page.events[1].summaryLine.contains("did not finish"))
        // a.jpg's outcome is the later run's now: the earlier run's page no longer has it.
        #expect(page.events[0].photos.map(\.path) == ["/p/b.jpg"])
        #expect(page.events[0].window == Self.window)
        #expect(abs((page.events[0].photos(.outside).first?.outsideBy ?? 0) - 2 * 3_600) < 0.001)
        #expect(page.events[1].photos.map(\.status) == [.duplicate])
        // The latest run is the default, and it holds what it and the runs before it recorded.
        let latest = try await ImportReport.read(catalogs: [path], nearEdgeMargin: 3_600).page
        #expect(latest.events.map(\.name) == ["Party"])
        #expect(latest.events[0].photos(.uploaded).map(\.path) == ["/p/a.jpg", "/p/c.jpg"])
        #expect(latest.events[0].photos(.outside).map(\.path) == ["/p/b.jpg"])
        let none = try await ImportReport.read(catalogs: [path], run: 99, nearEdgeMargin: 3_600)
        #expect(none.page.events.isEmpty && none.summary.parts.map(\.state) == [.empty])
    }

    @Test("A raw photo's picture in the page is made from its embedded preview")
    func rawPhotoPicture() async throws {
        let folder = TemporaryFolder("report-raw")
        let nef = try Fixtures.raw("Nikon.nef", in: folder, previewTag: "JpgFromRaw", width: 1200, height: 800)
        let photo = ReportPhoto(path: nef.path, status: .uploaded, kind: .nef)
        let found = await ReportThumbnails(archiveRoot: nil).find([photo])
        #expect(found.sources[nef.path]?.hasPrefix("data:image/jpeg;base64,") == true)
    }
}
