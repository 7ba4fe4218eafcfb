import Foundation
import IngestCore
import IngestDating
import IngestOutcome
import IngestPipeline

/// The `--json` document at the end of a run.
///
/// With one event: that event's ``EventSummary``, its fields at the top, and the run's time zone.
/// With several: each event's summary under `events`, the run's `totals` (each file counted
/// once), the photos outside every event's window, and the time zone.
public struct JSONSummary: Codable, Sendable, Equatable {
    public var events: [EventSummary]
    /// The run's totals; nil for a run with one event, whose own figures are the run's.
    public var totals: Totals?
    public var outsideAllEvents: Int?
    /// The zone EXIF times without an offset were read in.
    public var timeZone: String
    /// Each camera body the run saw, with its clock offset and the one its photos suggest.
    public var cameras: [Camera]
    /// Entries the exclusion rules left out, by rule (`{"@eaDir": 1198, ".DS_Store": 6}`).
    public var excluded: [String: Int]
    /// Files found with an XMP sidecar beside them (`"sidecars"`).
    public var withSidecars: Int
    /// Zip files walked into, their entries read in place (`"zipFiles"`).
    public var zipFiles: Int
    /// Folders found as an earlier run sealed them (every file done, none changed since), and
    /// the files in them (`"settledFolders"`, `"settledFiles"`): counted without a lookup each.
    public var settledFolders: Int
    public var settledFiles: Int
    /// A Google Takeout's JSONs, paired and not (`"takeout"`; absent when the run met none).
    public var takeout: TakeoutCounts?
    /// An iCloud export's CSVs, the files dated and not (`"icloud"`; absent when the run met none).
    public var icloud: ICloudCounts?
    /// A sharded run's shard and where every shard's catalog is expected (`"shard"`; absent unsharded).
    public var shard: ShardCatalogs?
    /// Why a watch's run ended to start another (`"restartingFor"`: the events' change, or
    /// SIGHUP); absent when the run, or the watch, has ended for good.
    public var restartingFor: String?

    /// One camera body, its fields always written, null when unknown.
    public struct Camera: Codable, Sendable, Equatable {
        public var make: String?
        public var model: String?
        public var serial: String?
        public var files: Int
        public var outside: Int
        /// The offset applied to its clock, `-01:02:30`.
        public var clockOffset: String?
        /// The offset its photos suggest; never applied by itself.
        public var suggestedClockOffset: String?
        /// What the suggestion rests on, or what is known without one.
        public var basis: String?

        init(_ camera: CameraSummary) {
            (self.make, self.model, self.serial) = (camera.body.make, camera.body.model, camera.body.serial)
            (self.files, self.outside, self.basis) = (camera.files, camera.outside, camera.basis)
            self.clockOffset = camera.clockOffset.map(ClockOffset.format)
            self.suggestedClockOffset = camera.suggestedClockOffset.map(ClockOffset.format)
        }

        public func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(self.make, forKey: .make)
            try fields.encode(self.model, forKey: .model)
            try fields.encode(self.serial, forKey: .serial)
            try fields.encode(self.files, forKey: .files)
            try fields.encode(self.outside, forKey: .outside)
            try fields.encode(self.clockOffset, forKey: .clockOffset)
            try fields.encode(self.suggestedClockOffset, forKey: .suggestedClockOffset)
            try fields.encode(self.basis, forKey: .basis)
        }
    }

    /// The run's own figures, each file counted once whatever the number of events.
    public struct Totals: Codable, Sendable, Equatable {
        public var files: Int
        public var unchanged: Int
        public var bytes: Int64
        public var seconds: Double
        public var filesPerSecond: Double
    }

    public init(_ run: RunSummary, outsideAllEvents: Int, timeZone: String) {
        self.events = run.events.map(run.summary(of:))
        self.timeZone = timeZone
        self.cameras = run.cameras.map(Camera.init)
        self.excluded = run.excluded
        self.withSidecars = run.withSidecars
        self.zipFiles = run.zipFiles
        (self.settledFolders, self.settledFiles) = (run.settledFolders, run.settledFiles)
        self.takeout = run.takeout.isEmpty ? nil : run.takeout
        self.icloud = run.icloud.isEmpty ? nil : run.icloud
        guard run.events.count != 1 else { return }
        self.outsideAllEvents = outsideAllEvents
        self.totals = Totals(
            files: run.filesDone, unchanged: run.filesUnchanged, bytes: run.bytesRead, seconds: run.elapsedSeconds,
            filesPerSecond: run.filesPerSecond)
    }

    /// The first event's summary: the whole of a one-event run's.
    public var event: EventSummary? { self.events.first }

    private enum CodingKeys: String, CodingKey {
        case events, totals, outsideAllEvents, timeZone, cameras, excluded
        case withSidecars = "sidecars"
        case zipFiles, settledFolders, settledFiles, shard, takeout, icloud, restartingFor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let totals = self.totals {
            try container.encode(self.events, forKey: .events)
            try container.encode(totals, forKey: .totals)
            try container.encodeIfPresent(self.outsideAllEvents, forKey: .outsideAllEvents)
        } else if let event = self.events.first {
            try event.encode(to: encoder)
        }
        try container.encode(self.timeZone, forKey: .timeZone)
        try container.encode(self.cameras, forKey: .cameras)
        try container.encode(self.excluded, forKey: .excluded)
        try container.encode(self.withSidecars, forKey: .withSidecars)
        try container.encode(self.zipFiles, forKey: .zipFiles)
        try container.encode(self.settledFolders, forKey: .settledFolders)
        try container.encode(self.settledFiles, forKey: .settledFiles)
        try container.encodeIfPresent(self.shard, forKey: .shard)
        try container.encodeIfPresent(self.takeout, forKey: .takeout)
        try container.encodeIfPresent(self.icloud, forKey: .icloud)
        try container.encodeIfPresent(self.restartingFor, forKey: .restartingFor)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.timeZone = try container.decode(String.self, forKey: .timeZone)
        self.cameras = try container.decodeIfPresent([Camera].self, forKey: .cameras) ?? []
        self.excluded = try container.decodeIfPresent([String: Int].self, forKey: .excluded) ?? [:]
        self.withSidecars = try container.decodeIfPresent(Int.self, forKey: .withSidecars) ?? 0
        self.zipFiles = try container.decodeIfPresent(Int.self, forKey: .zipFiles) ?? 0
        self.settledFolders = try container.decodeIfPresent(Int.self, forKey: .settledFolders) ?? 0
        self.settledFiles = try container.decodeIfPresent(Int.self, forKey: .settledFiles) ?? 0
        self.shard = try container.decodeIfPresent(ShardCatalogs.self, forKey: .shard)
        self.takeout = try container.decodeIfPresent(TakeoutCounts.self, forKey: .takeout)
        self.icloud = try container.decodeIfPresent(ICloudCounts.self, forKey: .icloud)
        self.restartingFor = try container.decodeIfPresent(String.self, forKey: .restartingFor)
        if container.contains(.events) {
            self.events = try container.decode([EventSummary].self, forKey: .events)
            self.totals = try container.decodeIfPresent(Totals.self, forKey: .totals)
            self.outsideAllEvents = try container.decodeIfPresent(Int.self, forKey: .outsideAllEvents)
        } else {
            self.events = [try EventSummary(from: decoder)]
        }
    }

    /// The document as `--json` prints it: one line, keys sorted.
    public var jsonText: String { CompactJSON.text(self) }
}
