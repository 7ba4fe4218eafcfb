import Foundation
import IngestCore
import IngestDating
import IngestOutcome
import IngestPipeline

/// One line of the per-file report (`--report`, NDJSON): one event's outcome for a file, or the
/// file's as a whole.
///
/// The fields every line has are written even when they are null, so that a reader sees them
/// all; the others only when they say something. `errorCode` is there, null when unknown, for
/// failed and known broken files.
public struct FileLine: Codable, Sendable, Equatable {
    public var path: String
    public var size: Int64?
    public var sha256: String?
    public var mediaType: String?
    public var status: FileStatus
    /// RFC 3339 UTC with `Z`.
    public var captureTime: String?
    public var captureSource: String?
    public var localTime: String?
    public var offset: String?
    /// The event's name; null for a line about the file as a whole.
    public var event: String?
    public var scope: Scope
    /// With several events: a photo outside every event's window, said once.
    public var outsideEveryEvent: Bool?
    public var assumedZone: String?
    public var zone: String?
    public var captureNotes: [String]?
    /// A failed file's reason.
    public var error: String?
    public var errorCode: String?
    /// Why a file that did not fail was skipped, counted as a duplicate or stored with a note.
    public var reason: String?
    public var outsideBySeconds: Double?
    public var pair: Pair?
    public var nearEdge: String?
    public var dryRun: Bool?
    public var knownBroken: Bool?
    /// The body that took the file, once it was read: make, model and serial, each null when
    /// the file does not say.
    public var camera: Camera?
    /// What a clock offset added to the camera's clock (`-01:02:30`), and the time the camera
    /// wrote before it; absent when no offset applied.
    public var clockOffset: String?
    public var cameraTime: String?
    /// The XMP sidecar found beside the file; absent when there was none.
    public var sidecar: String?
    /// The Google Takeout JSON paired with the file, and the rule that paired them
    /// (``TakeoutPairing/Rule``); absent when there was none.
    public var takeoutJSON: String?
    public var takeoutRule: String?
    /// The iCloud `Photo Details.csv` whose row for the file was read; absent when none was.
    public var icloudCSV: String?
    /// A line of the archive's report, whose accepted files are said to be `stored`.
    public var atArchive = false

    enum CodingKeys: String, CodingKey {
        case path, size, sha256, mediaType, status, captureTime, captureSource, localTime, offset, event, scope
        case outsideEveryEvent, assumedZone, zone, captureNotes, error, errorCode, reason, outsideBySeconds, pair
        case nearEdge, dryRun, knownBroken, camera, clockOffset, cameraTime, sidecar, takeoutJSON, takeoutRule,
            icloudCSV
    }

    /// The camera body, its three fields always written, null when unknown.
    public struct Camera: Codable, Sendable, Equatable {
        public var make: String?
        public var model: String?
        public var serial: String?

        init(_ body: CameraBody) {
            (self.make, self.model, self.serial) = (body.make, body.model, body.serial)
        }

        public func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(self.make, forKey: .make)
            try fields.encode(self.model, forKey: .model)
            try fields.encode(self.serial, forKey: .serial)
        }
    }

    public enum Scope: String, Codable, Sendable {
        /// The file as a whole: skipped, failed before any event, or outside every event.
        case file
        /// One event's outcome.
        case event
    }

    /// The file a file was paired with, and why.
    public struct Pair: Codable, Sendable, Equatable {
        public var path: String
        public var why: String
    }

    /// `event`'s outcome for the file, or with no event, the file's as a whole; `atArchive` for a
    /// run into the archive.
    public init(_ outcome: FileOutcome, event: Event?, atArchive: Bool = false) {
        let capture = outcome.capture
        self.atArchive = atArchive
        self.path = PathBytes.unicode(outcome.path)
        self.size = outcome.size
        self.sha256 = outcome.sha256?.hex
        self.mediaType = outcome.kind?.mediaType
        self.status = outcome.status
        self.captureTime = capture.map { RFC3339.format($0.instant) }
        self.captureSource = capture?.sourceName
        self.localTime = capture?.localTime?.description
        self.offset = capture?.offset
        self.event = event?.name
        self.scope = event == nil ? .file : .event
        if event == nil && outcome.status == .outside { self.outsideEveryEvent = true }
        self.assumedZone = capture?.assumedZone
        self.zone = capture?.zone
        if let notes = capture?.notes, !notes.isEmpty { self.captureNotes = notes }
        if outcome.status == .failed {
            self.error = outcome.reason ?? "failed"
        } else {
            self.reason = outcome.reason
        }
        if outcome.status == .failed || outcome.knownBroken { self.errorCode = outcome.errorCode?.name }
        // Outside each event by its own distance: a line for them all says none.
        if event != nil { self.outsideBySeconds = outcome.outsideBy }
        self.pair = outcome.pair.map { Pair(path: PathBytes.unicode($0.path), why: $0.reason) }
        self.nearEdge = outcome.nearEdge?.description
        if outcome.dryRun { self.dryRun = true }
        if outcome.knownBroken { self.knownBroken = true }
        if outcome.kind != nil { self.camera = Camera(outcome.camera ?? CameraBody()) }
        if let capture, let seconds = capture.clockOffset {
            self.clockOffset = ClockOffset.format(seconds)
            self.cameraTime = capture.cameraClock.description
        }
        switch outcome.facts.sidecar?.format {
        case .xmp?: self.sidecar = outcome.facts.sidecar.map { PathBytes.unicode($0.path) }
        case .takeoutJSON(let rule)?:
            self.takeoutJSON = outcome.facts.sidecar.map { PathBytes.unicode($0.path) }
            self.takeoutRule = rule.rawValue
        case .icloudCSV?: self.icloudCSV = outcome.facts.sidecar.map { PathBytes.unicode($0.path) }
        case nil: break
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var line = encoder.container(keyedBy: CodingKeys.self)
        try line.encode(self.path, forKey: .path)
        // Always there, null when unknown.
        try line.encode(self.size, forKey: .size)
        try line.encode(self.sha256, forKey: .sha256)
        try line.encode(self.mediaType, forKey: .mediaType)
        try line.encode(self.status.name(atArchive: self.atArchive), forKey: .status)
        try line.encode(self.captureTime, forKey: .captureTime)
        try line.encode(self.captureSource, forKey: .captureSource)
        try line.encode(self.localTime, forKey: .localTime)
        try line.encode(self.offset, forKey: .offset)
        try line.encode(self.event, forKey: .event)
        try line.encode(self.scope, forKey: .scope)
        if self.status == .failed || self.knownBroken == true {
            try line.encode(self.errorCode, forKey: .errorCode)
        }
        try line.encodeIfPresent(self.outsideEveryEvent, forKey: .outsideEveryEvent)
        try line.encodeIfPresent(self.assumedZone, forKey: .assumedZone)
        try line.encodeIfPresent(self.zone, forKey: .zone)
        try line.encodeIfPresent(self.captureNotes, forKey: .captureNotes)
        try line.encodeIfPresent(self.error, forKey: .error)
        try line.encodeIfPresent(self.reason, forKey: .reason)
        try line.encodeIfPresent(self.outsideBySeconds, forKey: .outsideBySeconds)
        try line.encodeIfPresent(self.pair, forKey: .pair)
        try line.encodeIfPresent(self.nearEdge, forKey: .nearEdge)
        try line.encodeIfPresent(self.dryRun, forKey: .dryRun)
        try line.encodeIfPresent(self.knownBroken, forKey: .knownBroken)
        try line.encodeIfPresent(self.camera, forKey: .camera)
        try line.encodeIfPresent(self.clockOffset, forKey: .clockOffset)
        try line.encodeIfPresent(self.cameraTime, forKey: .cameraTime)
        try line.encodeIfPresent(self.sidecar, forKey: .sidecar)
        try line.encodeIfPresent(self.takeoutJSON, forKey: .takeoutJSON)
        try line.encodeIfPresent(self.takeoutRule, forKey: .takeoutRule)
        try line.encodeIfPresent(self.icloudCSV, forKey: .icloudCSV)
    }
}
