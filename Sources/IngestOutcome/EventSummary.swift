import Foundation
import IngestCore

/// One event's part of a run, as `--json` writes it and the catalog keeps it.
///
/// The `--json` object of a run with one event (``JSONSummary`` adds the time zone), an element
/// of its `events` with several, and the summary each event's run leaves in the catalog, which
/// `photoingest report` reads back. What holds for the whole run (interrupted, elapsed, the
/// destination's counters, what stopped it) is said in each event's, as before.
public struct EventSummary: Codable, Sendable, Equatable {
    public var destination: String
    /// The event's name.
    public var event: String
    public var dryRun: Bool
    /// Stopped by the user (Ctrl-C).
    public var interrupted: Bool
    /// Files that ended with an outcome in the event.
    public var files: Int
    public var counts: StatusCounts
    /// Of the skipped files, those an earlier run finished, unchanged since.
    public var unchanged: Int
    public var nearEdge: Int
    public var knownBroken: Int
    public var datedByFileTime: Int
    /// Bytes read from the files that were read.
    public var bytes: Int64
    public var seconds: Double
    public var filesPerSecond: Double
    /// Each stage's durations, by the stage's name, for the stages files went through.
    public var stages: [String: StageFigures]
    /// The PhotoShare clients' summary line.
    public var summary: String
    /// The summary line with this run's failures and pending files beside it.
    public var closingLine: String
    public var catalogProblem: String?
    /// What stopped the run before its end, in words.
    public var stoppedBy: String?
    /// For a run stopped before its end: the files it did not reach that the event still needs
    /// (the pending ones, stopped in flight, are in `counts`). Nil for a run that reached every file.
    public var notReached: Int?
    /// The destination's counters (requests, retries, bytes uploaded), when it keeps any.
    public var transfers: [String: Int]?

    /// How many files ended with each status, keyed by the status in the destination's words
    /// (`stored` in the archive, `uploaded` at a server).
    public struct StatusCounts: Codable, Sendable, Equatable {
        public var uploaded = 0
        public var duplicate = 0
        public var outside = 0
        public var undated = 0
        public var failed = 0
        public var pending = 0
        public var skipped = 0
        /// Counts of the archive's event, where accepted files are stored.
        public var atArchive = false

        public init(atArchive: Bool = false) {
            self.atArchive = atArchive
        }

        /// A status's name as a key.
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Reads either destination's words; older catalogs said `uploaded` of the archive too.
        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: Key.self)
            for key in values.allKeys {
                guard let status = FileStatus(name: key.stringValue) else { continue }
                self[status] = try values.decode(Int.self, forKey: key)
                if key.stringValue == "stored" { self.atArchive = true }
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: Key.self)
            for status in FileStatus.allCases {
                try values.encode(self[status], forKey: Key(stringValue: status.name(atArchive: self.atArchive)))
            }
        }

        public subscript(status: FileStatus) -> Int {
            get {
                switch status {
                case .uploaded: self.uploaded
                case .duplicate: self.duplicate
                case .outside: self.outside
                case .undated: self.undated
                case .failed: self.failed
                case .pending: self.pending
                case .skipped: self.skipped
                }
            }
            set {
                switch status {
                case .uploaded: self.uploaded = newValue
                case .duplicate: self.duplicate = newValue
                case .outside: self.outside = newValue
                case .undated: self.undated = newValue
                case .failed: self.failed = newValue
                case .pending: self.pending = newValue
                case .skipped: self.skipped = newValue
                }
            }
        }
    }

    /// A stage's durations over the run.
    public struct StageFigures: Codable, Sendable, Equatable {
        public var count: Int
        public var p50Seconds: Double
        public var p95Seconds: Double
        public var totalSeconds: Double
    }
}

extension EventSummary {
    /// Reads a summary; one an earlier version left in a catalog may lack the fields added since,
    /// which read as zero or empty.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ absent: T) throws -> T {
            try values.decodeIfPresent(T.self, forKey: key) ?? absent
        }
        self.destination = try value(.destination, "")
        self.event = try value(.event, "")
        self.dryRun = try value(.dryRun, false)
        self.interrupted = try value(.interrupted, false)
        self.files = try value(.files, 0)
        self.counts = try value(.counts, StatusCounts())
        self.unchanged = try value(.unchanged, 0)
        self.nearEdge = try value(.nearEdge, 0)
        self.knownBroken = try value(.knownBroken, 0)
        self.datedByFileTime = try value(.datedByFileTime, 0)
        self.bytes = try value(.bytes, 0)
        self.seconds = try value(.seconds, 0)
        self.filesPerSecond = try value(.filesPerSecond, 0)
        self.stages = try value(.stages, [:])
        self.summary = try value(.summary, "")
        self.closingLine = try value(.closingLine, self.summary)
        self.catalogProblem = try values.decodeIfPresent(String.self, forKey: .catalogProblem)
        self.stoppedBy = try values.decodeIfPresent(String.self, forKey: .stoppedBy)
        self.notReached = try values.decodeIfPresent(Int.self, forKey: .notReached)
        self.transfers = try values.decodeIfPresent([String: Int].self, forKey: .transfers)
    }

    /// The summary as one line of JSON, keys sorted: what the catalog keeps.
    public var jsonText: String { CompactJSON.text(self) }

    /// The summary in `text`, or nil when it is not one (a run that did not finish left none).
    public init?(jsonText text: String) {
        guard let summary = try? JSONDecoder().decode(EventSummary.self, from: Data(text.utf8)) else { return nil }
        self = summary
    }
}
