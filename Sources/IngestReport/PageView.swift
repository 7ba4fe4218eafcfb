import Foundation
import IngestCore

/// The report as the templates read it: stored properties only (swift-mustache reads values by
/// reflection), every number already formatted, every text left for the template to escape.
struct PageView {
    let title: String
    let destination: String
    let generated: String
    let dryRun: Bool
    let leftOut: String?
    /// The catalogs the page was drawn from, when they are several or one is a shard's.
    let partList: PartList?
    let notes: [String]
    let legend: [Legend]
    let events: [EventView]

    struct PartList {
        let label: String
        let parts: [Part]
    }

    struct Part {
        let state: String
        let shard: String?
        let line: String
    }

    struct Legend {
        let label: String
        let glyph: String
        let css: String
    }

    struct EventView {
        let anchor: String
        let name: String
        let window: String
        let summary: String
        /// Whose line it is: "This run:", or "These runs:" over several catalogs.
        let summaryLabel: String
        /// What the counts below the run's line are of: the run's files, or the event's in the
        /// catalog after the run (a re-run's line says "No photos stored" above "Stored: 8").
        let countsHeading: String
        let counts: [Count]
        let timeline: TimelineView?
        /// The same photos, one row per camera body, when the event has several: a camera whose
        /// clock is off shows as a row shifted from the others.
        let cameraTimeline: TimelineView?
        let undated: String?
        let sections: [Section]
    }

    struct Count {
        let label: String
        let glyph: String
        let css: String
        let count: Int
    }

    struct TimelineView {
        let width: String
        let height: String
        let windowX: String
        let windowWidth: String
        let windowHeight: String
        let lanes: [Lane]
        let ticks: [Tick]
        let marks: [Mark]
        let offScale: String?
        /// What a row is, for the figure's label: an outcome or a camera.
        let rows: String
        let caption: String
    }

    struct Lane {
        let y: String
        let labelY: String
        let label: String
    }

    struct Tick {
        let x: String
        let y: String
        let label: String
    }

    struct Mark {
        let transform: String
        let shape: String
        let css: String
        let href: String
        let title: String
        /// The span an assumed zone leaves open: `x1`, `x2` at the mark's height.
        let span: Span?
        let ring: Bool
    }

    struct Span {
        let x1: String
        let x2: String
        let y: String
    }

    struct Section {
        let id: String
        let status: String
        let heading: String
        let glyph: String
        let css: String
        let count: Int
        /// The tiles in groups: the page makes a group's pictures as it nears the screen, and skips
        /// laying out the groups far from it.
        let chunks: [Chunk]
    }

    struct Chunk {
        let tiles: [Tile]
    }

    struct Tile {
        let id: String
        let name: String
        let alt: String
        let glyph: String
        let css: String
        let src: String?
        let written: String?
        let utc: String?
        let source: String
        let detail: String?
        /// For an outside photo, where its time came from: why it fell outside.
        let why: String?
        let nearEdge: String?
        let outsideSeconds: String?
    }
}

extension PageView {
    init(_ page: ReportPage, pictures: ReportThumbnails.Found) {
        let archive = page.archiveRoot != nil
        self.title = page.title
        self.destination = page.destination
        self.generated = RFC3339.format(page.generated)
        self.dryRun = page.dryRun
        self.leftOut =
            pictures.leftOut > 0
            ? "\(pictures.leftOut) photos are shown without a picture: a report embeds at most "
                + "\(pictures.limit) thumbnails (outside photos first)."
            : nil
        self.partList =
            page.parts.isEmpty
            ? nil
            : PartList(
                label: page.parts.contains { $0.shard != nil } ? "Shards" : "Catalogs",
                parts: page.parts.map { Part(state: $0.state.rawValue, shard: $0.shard, line: $0.line) })
        self.notes = page.notes
        self.legend = HTMLReport.sections.map {
            Legend(label: HTMLReport.label($0, archive: archive), glyph: HTMLReport.glyph($0), css: $0.rawValue)
        }
        self.events = page.events.enumerated().map { index, event in
            EventView(
                event, anchor: "e\(index + 1)", page: page, pictures: pictures.sources)
        }
    }
}

extension PageView.EventView {
    /// `event` of `page`, its tiles' pictures by path.
    init(_ event: ReportEvent, anchor: String, page: ReportPage, pictures: [String: String]) {
        let (archive, fromCatalog, zone) = (page.archiveRoot != nil, page.fromCatalog, page.zone)
        self.anchor = anchor
        self.name = event.name
        self.window =
            event.window.start == nil && event.window.end == nil
            ? "no window: every dated photo belongs"
            : (event.window.start.map(RFC3339.format) ?? "open") + " to "
                + (event.window.end.map(RFC3339.format) ?? "open") + " (UTC)"
                + (zone.flatMap { event.window.wallClocks(in: $0) }.map { "; " + $0 } ?? "")
        self.summary = event.summaryLine
        self.summaryLabel = page.parts.count > 1 ? "These runs:" : "This run:"
        self.countsHeading =
            !fromCatalog
            ? "This run's files:"
            : page.parts.count > 1
                ? "The event in the catalogs after these runs, files earlier runs did included:"
                : "The event in the catalog after this run, files earlier runs did included:"
        var tiles: [(tile: Int, photo: ReportPhoto)] = []
        var sections: [PageView.Section] = []
        var counts: [PageView.Count] = []
        for status in HTMLReport.sections {
            let photos = event.photos(status)
            let label = HTMLReport.label(status, archive: archive)
            counts.append(
                PageView.Count(label: label, glyph: HTMLReport.glyph(status), css: status.rawValue, count: photos.count)
            )
            guard !photos.isEmpty else { continue }
            let first = tiles.count
            tiles += photos.enumerated().map { (first + $0.offset, $0.element) }
            sections.append(
                PageView.Section(
                    id: "\(anchor)-\(status.rawValue)", status: status.rawValue, heading: label,
                    glyph: HTMLReport.glyph(status), css: status.rawValue, count: photos.count,
                    chunks: Self.chunks(
                        photos.enumerated().map { offset, photo in
                            PageView.Tile(
                                photo, id: "\(anchor)-t\(first + offset)", label: label, window: event.window,
                                picture: pictures[photo.path])
                        })))
        }
        self.counts = counts
        self.sections = sections
        let dated = tiles.filter { $0.photo.capture != nil }
        self.timeline =
            dated.isEmpty
            ? nil
            : PageView.TimelineView(Timeline(window: event.window, photos: dated), anchor: anchor, archive: archive)
        let bodies = Set(dated.map { $0.photo.camera ?? CameraBody() })
        self.cameraTimeline =
            bodies.count < 2
            ? nil
            : PageView.TimelineView(
                Timeline(window: event.window, photos: dated, rows: .cameras), anchor: anchor, archive: archive,
                caption: ([
                    "One row per camera: a camera whose clock is off shows its moments shifted from the others'."
                ]
                    + page.cameraNotes).joined(separator: " "))
        let undated = tiles.count - dated.count
        self.undated =
            undated == 0
            ? nil
            : undated == 1
                ? "1 file without a capture time is not on the timeline."
                : "\(undated) files without a capture time are not on the timeline."
    }
}

extension PageView.EventView {
    /// Groups of 60 tiles: ten rows on a wide screen.
    static func chunks(_ tiles: [PageView.Tile]) -> [PageView.Chunk] {
        stride(from: 0, to: tiles.count, by: 60).map {
            PageView.Chunk(tiles: Array(tiles[$0..<min($0 + 60, tiles.count)]))
        }
    }
}

extension PageView.Tile {
    init(_ photo: ReportPhoto, id: String, label: String, window: EventWindow, picture: String?) {
        self.id = id
        self.name = photo.name
        self.glyph = HTMLReport.glyph(photo.status)
        self.css = photo.status.rawValue
        self.src = picture
        self.written = photo.capture?.localTime.map { $0.description + (photo.capture?.offset ?? "") }
        self.utc = photo.capture.map { RFC3339.format($0.instant) }
        self.source = HTMLReport.source(photo.capture)
        self.detail = HTMLReport.outside(photo, window: window) ?? photo.reason
        self.why = photo.status == .outside ? self.source : nil
        self.nearEdge = photo.nearEdge
        self.outsideSeconds = photo.outsideBy.map { String(Int($0.rounded())) }
        self.alt = "\(photo.name): \(label)" + (self.utc.map { ", taken \($0)" } ?? "")
    }
}
