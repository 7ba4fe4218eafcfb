import Foundation
import IngestCatalog
import IngestCore
import IngestPipeline

/// A run's report drawn from the catalog: each event of the run as the catalog held it after that
/// run. The catalog keeps a file's latest outcome only, so a file a later run decided again is
/// not on an earlier run's page.
public enum CatalogReport {
    /// The page of the run `run` belongs to, or of the latest run; nil when the catalog has none.
    /// `otherOffsets` nil when the run's zone was the user's (see ``ReportPhoto``).
    public static func page(
        _ catalog: Catalog, run: Int64?, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>? = []
    ) async throws -> ReportPage? {
        let runs = try await catalog.invocation(of: run)
        guard let first = runs.first else { return nil }
        var events: [ReportEvent] = []
        for run in runs {
            let records = try await catalog.outcomes(destination: run.destination, event: run.event, upTo: run.id)
            // The window of the latest outcome: the one this run judged against, when it recorded any.
            let window = records.max { $0.run < $1.run }?.window ?? EventWindow()
            events.append(
                ReportEvent(
                    name: run.eventName, window: window, summaryLine: Self.summaryLine(run),
                    photos: records.map {
                        ReportPhoto($0, window: window, nearEdgeMargin: nearEdgeMargin, otherOffsets: otherOffsets)
                    }))
        }
        var page = ReportPage(
            title: "photoingest run \(first.invocation), " + Self.title(RFC3339.parse(first.startedAt) ?? Date()),
            destination: first.destination,
            dryRun: false, events: events)
        page.fromCatalog = true
        return page
    }

    /// `2025-09-28 05:12 UTC`: when a run began, for a page's title.
    public static func title(_ started: Date) -> String {
        let text = RFC3339.format(started)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }

    /// `report --list`: a line per run (its id for `--run`, when it began, where it went, and
    /// each event's summary line), oldest first.
    public static func list(_ catalog: Catalog) async throws -> String {
        let runs = Dictionary(grouping: try await catalog.runs(), by: \.invocation).sorted { $0.key < $1.key }
        var lines = ["run\tstarted\tdestination\tevents"]
        for (invocation, events) in runs {
            let started = Self.title(RFC3339.parse(events[0].startedAt) ?? Date())
            let summaries = events.map { "\($0.eventName): \(Self.summaryLine($0))" }.joined(separator: "; ")
            lines.append("\(invocation)\t\(started)\t\(events[0].destination)\t\(summaries)")
        }
        return lines.joined(separator: "\n")
    }

    /// The line the run printed for the event, from the summary it left in the catalog.
    static func summaryLine(_ run: RunRecord) -> String {
        guard let text = run.summary, let summary = EventSummary(jsonText: text) else {
            return "The run did not finish: no summary was recorded."
        }
        return summary.closingLine
    }
}
