import Foundation
import IngestCore

/// One catalog of an import as a report found it: a whole run's, or one shard's of a sharded
/// import, including a shard whose catalog is not there or was not given.
public struct ImportPart: Codable, Sendable, Equatable {
    /// How far the part's latest run got.
    public enum State: String, Codable, Sendable {
        /// Every event's run left its summary.
        case finished
        /// A run holds the catalog now.
        case running
        /// The latest run left no summary and no run holds the catalog: it was stopped hard.
        case unfinished
        /// The catalog records no run.
        case empty
        /// A shard whose catalog is not where its name says: it has not run.
        case notRun = "not-run"
        /// A shard whose catalog is there but was not given to the report.
        case notGiven = "not-given"
        /// A file that cannot be read as a catalog (another program's database, a damaged one).
        case unusable
    }

    public var catalog: String?
    /// The part of the import (`3/8`), when the run was sharded.
    public var shard: String?
    public var state: State
    /// The id of the latest run the catalog records (its first event's).
    public var run: Int64?
    public var startedAt: String?
    public var finishedAt: String?
    /// Who holds the catalog, for a running part: "the photoingest run with pid 812, started …".
    public var runningIn: String?
    /// Why an unusable part could not be read.
    public var problem: String?

    public init(catalog: String?, shard: String?, state: State) {
        self.catalog = catalog
        self.shard = shard
        self.state = state
    }

    /// Whether the part's counts are in the import's: only a finished run's are known whole.
    public var counted: Bool { self.state == .finished }

    /// The part in one line, as the report's text and page say it.
    public var line: String {
        var name = ""
        if let shard = self.shard, let slash = shard.firstIndex(of: "/") {
            name = "Shard \(shard[..<slash]) of \(shard[shard.index(after: slash)...])"
        }
        if let catalog = self.catalog { name += (name.isEmpty ? "" : ", ") + catalog }
        let started = self.startedAt.flatMap(RFC3339.parse).map(CatalogReport.title)
        let what =
            switch self.state {
            case .finished: "finished" + (started.map { " (run \(self.run ?? 0), begun \($0))" } ?? "")
            case .running:
                "still running in \(self.runningIn ?? "another photoingest run"): its photos so far are shown, "
                    + "its counts are not in the totals"
            case .unfinished:
                "did not finish (the run" + (started.map { " begun \($0)" } ?? "")
                    + " left no summary): its photos recorded are shown, its counts are not in the totals"
            case .empty: "records no run"
            case .notRun:
                self.catalog == nil ? "has not run, or its catalog was not given" : "has not run (no catalog there)"
            case .notGiven: "not given to this report (its catalog is there)"
            case .unusable: "not read: \(self.problem ?? "not a catalog")"
            }
        return (name.isEmpty ? "" : name + ": ") + what
    }
}
