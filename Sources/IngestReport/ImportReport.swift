import Foundation
import IngestCatalog
import IngestCore
import IngestHashing
import IngestOutcome

/// An import as its catalogs hold it: one catalog's run, or the shards of a sharded import, each
/// with its own catalog, drawn as one page and summed as one summary.
///
/// Each catalog's latest run is read (or `run`, with one catalog). The events of the parts are
/// joined by destination and event: the page's event holds every part's photos, and its counts
/// are the sum of the parts that finished. A shard the parts' names point to but that was not
/// given, or whose catalog is not there, is named; so is a part still running or stopped hard.
public struct ImportReport: Sendable {
    public var page: ReportPage
    public var summary: ImportSummary

    /// Reads the catalogs at `paths` (each may be missing: a shard that has not run).
    ///
    /// - Throws: the catalogs' errors (with one catalog: one that is not a catalog, or newer than
    ///   this version; with several, such a one is a part named unusable).
    public static func read(
        catalogs paths: [String], run: Int64? = nil, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>? = []
    ) async throws -> ImportReport {
        var parts: [Part] = []
        for path in paths {
            guard FileManager.default.fileExists(atPath: path) else {
                parts.append(Part(part: ImportPart(catalog: path, shard: nil, state: .notRun)))
                continue
            }
            do {
                parts.append(
                    try await Self.part(
                        Catalog(readingOnly: path), at: path, run: run, nearEdgeMargin: nearEdgeMargin,
                        otherOffsets: otherOffsets))
            } catch let error as IngestError where error.code == .catalogUnusable && paths.count > 1 {
                // One file of a folder that is no catalog (another program's database) is named,
                // and the others are still read.
                var part = ImportPart(catalog: path, shard: nil, state: .unusable)
                part.problem = error.message
                parts.append(Part(part: part))
            }
        }
        // A shard's catalog given but not there is named by the others' split.
        var missing: [ImportPart] = []
        for shard in Self.missingShards(of: parts.map(\.part)) {
            if let given = parts.firstIndex(where: { $0.part.state == .notRun && $0.part.catalog == shard.catalog }) {
                parts[given].part.shard = shard.shard
            } else {
                missing.append(shard)
            }
        }
        parts.sort { Self.order($0.part) < Self.order($1.part) }
        return Self.joined(parts, missing: missing)
    }

    /// The latest run of a catalog a run has open, as its `--html` page draws it.
    public static func read(
        _ catalog: Catalog, at path: String, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>? = []
    ) async throws -> ImportReport {
        let part = try await Self.part(
            catalog, at: path, run: nil, nearEdgeMargin: nearEdgeMargin, otherOffsets: otherOffsets)
        return Self.joined([part], missing: [])
    }

    /// The parts' events joined into one page and one summary.
    static func joined(_ parts: [Part], missing: [ImportPart]) -> ImportReport {
        var notes: [String] = []
        for (shard, holders) in Dictionary(grouping: parts.map(\.part).filter { $0.shard != nil }, by: { $0.shard! })
        where holders.count > 1 {
            notes.append(
                "Shard \(shard) is in \(holders.count) catalogs (\(holders.compactMap(\.catalog).joined(separator: ", "))): "
                    + "each one's counts are added")
        }
        let splits = Set(parts.compactMap { $0.part.shard.flatMap(Shard.init)?.count })
        if splits.count > 1 {
            notes.append(
                "The catalogs are of different splits: \(splits.sorted().map(String.init).joined(separator: ", ")) shards"
            )
        }

        // Every part's events joined: photos of all, summaries of the finished.
        var events: [String: Joined] = [:]
        var order: [String] = []
        for part in parts {
            for event in part.events {
                let key = event.destination + "\u{0}" + event.id
                if events[key] == nil {
                    order.append(key)
                    events[key] = Joined(event: event.event, destination: event.destination)
                }
                events[key]!.add(event, counted: part.part.counted)
            }
        }
        let joined = order.map { events[$0]! }
        // Each event's parts summed once, for the summary and the page alike.
        let merged = joined.map(\.summary)
        let summary = ImportSummary(
            parts: parts.map(\.part) + missing,
            events: zip(joined, merged).compactMap { event, sum in
                // A summary an older version left may not name its event.
                sum.map { summary in
                    var named = summary
                    if named.event.isEmpty { named.event = event.event.name }
                    return named
                }
            },
            inCatalogs: joined.map { event in
                var counts = EventSummary.StatusCounts(
                    atArchive: DestinationKind(identity: event.destination).isArchive)
                for photo in event.event.photos { counts[photo.status] += 1 }
                return ImportSummary.HeldEvent(event: event.event.name, destination: event.destination, counts: counts)
            }, notes: notes)
        let reportEvents = zip(joined, merged).map { event, sum in
            var shown = event.event
            if let sum {
                shown.summaryLine = sum.closingLine + (summary.partialSum.map { " (\($0))" } ?? "")
            }
            return shown
        }

        let runs = parts.compactMap { $0.part.startedAt.flatMap(RFC3339.parse) }
        let begun = CatalogReport.title(runs.min() ?? Date())
        let title: String
        if parts.count == 1, let only = parts.first?.part, let run = only.run {
            title = "photoingest run \(run), " + begun
        } else if let count = splits.max() {
            title = "photoingest import in \(count) shards, " + begun
        } else {
            title = "photoingest runs of \(parts.count) catalogs, " + begun
        }
        let destinations = joined.reduce(into: [String]()) {
            if !$0.contains($1.destination) { $0.append($1.destination) }
        }
        var page = ReportPage(
            title: title, destination: destinations.joined(separator: ", "), dryRun: false, events: reportEvents)
        page.fromCatalog = true
        if summary.parts.count > 1 || summary.parts.contains(where: { $0.shard != nil }) {
            page.parts = summary.parts
        }
        page.notes = notes
        // Each part's clock notes, once: a shard's are of its own photos.
        var seen = Set<String>()
        page.cameraNotes = parts.flatMap(\.clockNotes).filter { seen.insert($0).inserted }
        return ImportReport(page: page, summary: summary)
    }

    /// One catalog as read: its state, its run's events, and what the run said of its clocks.
    struct Part {
        var part: ImportPart
        var events: [PartEvent] = []
        var clockNotes: [String] = []
    }

    /// One event of one part: its page event, and its run's summary when the run left one.
    struct PartEvent {
        var destination: String
        var id: String
        var event: ReportEvent
        var summary: EventSummary?
    }

    /// One event over the parts.
    struct Joined {
        var event: ReportEvent
        var destination: String
        var summaries: [EventSummary] = []

        init(event: ReportEvent, destination: String) {
            self.event = ReportEvent(name: event.name, window: event.window, summaryLine: "", photos: [])
            self.destination = destination
        }

        mutating func add(_ part: PartEvent, counted: Bool) {
            self.event.photos += part.event.photos
            self.event.window = part.event.window
            self.event.summaryLine = part.event.summaryLine
            if counted, let summary = part.summary { self.summaries.append(summary) }
        }

        var summary: EventSummary? { EventSummary.merging(self.summaries) }
    }

    /// The catalog at `path` as a part, with its latest run's events (or `run`'s).
    static func part(
        _ catalog: Catalog, at path: String, run: Int64?, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>?
    ) async throws -> Part {
        let runs = try await catalog.invocation(of: run)
        guard let first = runs.first else { return Part(part: ImportPart(catalog: path, shard: nil, state: .empty)) }
        var part = ImportPart(catalog: path, shard: first.shard, state: .finished)
        part.run = first.invocation
        part.startedAt = first.startedAt
        part.finishedAt = runs.compactMap(\.finishedAt).max()
        if runs.contains(where: { $0.summary == nil }) {
            if let holder = RunLock.holder(of: RunLock.path(guarding: path)) {
                part.state = .running
                part.runningIn = holder.description
            } else {
                part.state = .unfinished
            }
            part.finishedAt = nil
        }
        var events: [PartEvent] = []
        for run in runs {
            let event = try await CatalogReport.event(
                of: run, in: catalog, nearEdgeMargin: nearEdgeMargin, otherOffsets: otherOffsets)
            events.append(
                PartEvent(
                    destination: run.destination, id: run.event, event: event,
                    summary: run.summary.flatMap(EventSummary.init(jsonText:))))
        }
        return Part(part: part, events: events, clockNotes: runs.first?.clockNotes ?? [])
    }

    /// The shards that the parts' split has and no part given is: each named by its catalog where
    /// the given ones' names say where it is, as not run when it is not there.
    static func missingShards(of parts: [ImportPart]) -> [ImportPart] {
        let shards = parts.compactMap { part in part.shard.flatMap(Shard.init).map { (part, $0) } }
        var missing: [ImportPart] = []
        for count in Set(shards.map(\.1.count)).sorted() {
            let present = Set(shards.filter { $0.1.count == count }.map(\.1.index))
            let named = shards.lazy.filter { $0.1.count == count }.compactMap { part, shard in
                part.catalog.flatMap { ShardPaths.siblings(of: $0, index: shard.index, count: count) }
            }.first
            for index in 0..<count where !present.contains(index) {
                let catalog = named?[index]
                let there = catalog.map { FileManager.default.fileExists(atPath: $0) } ?? false
                missing.append(
                    ImportPart(catalog: catalog, shard: "\(index)/\(count)", state: there ? .notGiven : .notRun))
            }
        }
        return missing
    }

    /// Parts in shard order, whole runs and unknown ones after, by catalog.
    static func order(_ part: ImportPart) -> (Int, Int, String) {
        let shard = part.shard.flatMap(Shard.init)
        return (shard?.count ?? Int.max, shard?.index ?? Int.max, part.catalog ?? "")
    }
}
