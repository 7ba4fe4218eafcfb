import Foundation
import IngestCore
import IngestOutcome

/// What one report file shows: a run's events, and where the thumbnails come from.
public struct ReportPage: Sendable {
    public var title: String
    /// `archive:/path` or the server's address, as the run names it.
    public var destination: String
    public var generated: Date
    public var dryRun: Bool
    public var events: [ReportEvent]
    /// Whether each event's photos are the catalog's after the run, files earlier runs did
    /// included, rather than this run's outcomes alone.
    public var fromCatalog = false
    /// The zone the photos were read in: each window is shown in it as well as in UTC.
    public var zone: TimeZone?
    /// What the run found of its cameras' clocks (an offset it suggests), said by the timeline
    /// that has a row per camera.
    public var cameraNotes: [String] = []
    /// The catalogs the page was drawn from, when they are several or one is a shard's: each
    /// with its state, and each shard of the split not among them.
    public var parts: [ImportPart] = []
    /// What the report noticed of its catalogs (a shard in two of them).
    public var notes: [String] = []

    public init(title: String, destination: String, generated: Date = Date(), dryRun: Bool, events: [ReportEvent]) {
        self.title = title
        self.destination = destination
        self.generated = generated
        self.dryRun = dryRun
        self.events = events
    }

    /// Whether the run stored into a local archive (its thumbnails can be referenced there).
    public var archiveRoot: String? {
        DestinationKind(identity: self.destination).isArchive ? DestinationKind.place(in: self.destination) : nil
    }
}
