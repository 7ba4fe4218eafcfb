import Foundation
import IngestCore
import IngestOutcome

/// `photoingest report --json`: an import over one catalog or the shards' catalogs, summed.
///
/// `events` holds one summary per event, each the sum of the finished parts' summaries (see
/// ``EventSummary/merging(_:)``): what these runs did. `inCatalogs` holds each event as the
/// catalogs hold it after them, files earlier runs did included: a shard run again after a stop
/// counts what the first run stored as unchanged, the catalogs count it stored. `parts` holds
/// every catalog given and every shard missing, each with its state; `complete` whether every
/// part finished and none is missing.
public struct ImportSummary: Codable, Sendable, Equatable {
    public var parts: [ImportPart]
    public var events: [EventSummary]
    public var inCatalogs: [HeldEvent]
    public var complete: Bool
    /// What the report noticed of the parts (a shard in two catalogs, catalogs of two splits).
    public var notes: [String]

    /// One event's files as the catalogs hold them, by outcome.
    public struct HeldEvent: Codable, Sendable, Equatable {
        public var event: String
        public var destination: String
        public var files: Int
        public var counts: EventSummary.StatusCounts

        public init(event: String, destination: String, counts: EventSummary.StatusCounts) {
            self.event = event
            self.destination = destination
            self.counts = counts
            self.files = FileStatus.allCases.reduce(0) { $0 + counts[$1] }
        }
    }

    public init(parts: [ImportPart], events: [EventSummary], inCatalogs: [HeldEvent] = [], notes: [String] = []) {
        self.parts = parts
        self.events = events
        self.inCatalogs = inCatalogs
        self.notes = notes
        self.complete = parts.allSatisfy { $0.state == .finished }
    }

    /// The summary in lines: the parts when there are several or one is a shard, the notes,
    /// then each event's line.
    public var lines: [String] {
        var lines: [String] = []
        if self.parts.count > 1 || self.parts.contains(where: { $0.shard != nil }) {
            lines += self.parts.map(\.line)
        }
        lines += self.notes
        lines += self.events.map { "\($0.event): \($0.closingLine)" + (self.partialSum.map { " (\($0))" } ?? "") }
        return lines
    }

    /// What the counts are the sum of, when not of every part: "the sum of 3 of 4 shards".
    public var partialSum: String? {
        let finished = self.parts.filter(\.counted).count
        guard finished < self.parts.count else { return nil }
        let parts = self.parts.contains { $0.shard != nil } ? "shards" : "catalogs"
        return "the sum of \(finished) of \(self.parts.count) \(parts)"
    }

    /// The document as `--json` prints it: one line, keys sorted.
    public var jsonText: String { CompactJSON.text(self) }
}
