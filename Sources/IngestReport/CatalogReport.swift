import Foundation
import IngestCatalog
import IngestCore
import IngestOutcome

/// A run's events drawn from the catalog, each as the catalog held it after that run (the
/// catalog keeps a file's latest outcome only, so a file a later run decided again is not on an
/// earlier run's page), and the list of the runs a catalog records.
public enum CatalogReport {
    /// `run`'s event as the catalog held it after that run, with the line the run printed.
    static func event(
        of run: RunRecord, in catalog: Catalog, nearEdgeMargin: TimeInterval, otherOffsets: Set<Int>?
    ) async throws -> ReportEvent {
        let records = try await catalog.outcomes(destination: run.destination, event: run.event, upTo: run.id)
        // The window of the latest outcome: the one this run judged against, when it recorded any.
        let window = records.max { $0.run < $1.run }?.window ?? EventWindow()
        return ReportEvent(
            name: run.eventName, window: window, summaryLine: Self.summaryLine(run),
            photos: records.map {
                ReportPhoto($0, window: window, nearEdgeMargin: nearEdgeMargin, otherOffsets: otherOffsets)
            })
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
