import Foundation
import IngestCore

/// Where a capture instant came from, from most to least trustworthy.
public enum CaptureSource: String, Sendable, Codable, CaseIterable {
    /// The camera's clock and the offset it wrote beside it (OffsetTimeOriginal/Digitized).
    case exifOffset = "exif-offset"
    /// The camera's clock, with the offset its GPS time stamp implies, which the zone at its GPS
    /// position had at that wall time too.
    case exifGPSAgreed = "exif-gps-agreed"
    /// The camera's clock read in the zone at its GPS position (DST-correct), with no GPS time to
    /// check it against.
    case exifGPSPosition = "exif-gps-position"
    /// The camera's clock, with the offset inferred from its GPS time stamp alone (no position, or
    /// a position whose zone disagrees: the fix wins, see docs/capture-time.md).
    case exifGPSOffset = "exif-gps-offset"
    /// The camera's clock read in a zone the camera did not name (`--timezone` or the machine's).
    case exifAssumedZone = "exif-assumed-zone"
    /// No clock reading, only the GPS fix's UTC time.
    case gpsUTC = "gps-utc"
    /// Nothing in the file: its modification time.
    case fileMTime = "file-mtime"
    /// Nothing in the file: its name's date and time (``FileNameDate``), in UTC or the assumed zone.
    case fileName = "file-name"
    /// Nothing in the file, and a name that gives the day only: the modification time, which
    /// falls on that day.
    case fileNameMTime = "file-name+mtime"
    /// Nothing in the file, and a name that gives the day only, which the modification time
    /// does not fall on: the whole day (the instant is its start). Placed only in windows that
    /// hold all of it.
    case fileNameDay = "file-name-day"
    /// An XMP sidecar's `exif:DateTimeOriginal` (else `photoshop:DateCreated`): the time a person
    /// corrected in Lightroom, darktable or another editor, with its offset, else read in a zone
    /// as a camera's clock is.
    case xmpSidecar = "xmp-sidecar"
    /// A Google Takeout JSON's `photoTakenTime` (UTC): the time of a file with none of its own,
    /// or the offset of a camera clock that wrote none.
    case takeoutJSON = "takeout-json"
    /// An iCloud export's `Photo Details.csv` (`originalCreationDate`, UTC to the minute): the time
    /// of a file with none of its own.
    case icloudCSV = "icloud-csv"
    /// A video: Apple's `com.apple.quicktime.creationdate`, the clock with its own offset.
    case quickTimeOffset = "quicktime-offset"
    /// A video: the `mvhd` creation time, UTC as QuickTime defines it (its local time, where it
    /// has one, is the zone's at its position).
    case quickTimeUTC = "quicktime-utc"
    /// A video: the user-data date (`©day`, `date`), which carries its zone.
    case quickTimeUserData = "quicktime-userdata"

    /// Whether the instant is known, or rests on an assumption a user should check.
    public var isAssumed: Bool { self == .exifAssumedZone || self == .fileMTime || self.isFileName }

    /// Whether the file's name dated it.
    public var isFileName: Bool { self == .fileName || self == .fileNameMTime || self == .fileNameDay }

    /// Whether the time was read from the camera's clock, which a clock offset corrects (not a
    /// GPS fix's, nor the file system's).
    public var readsCameraClock: Bool {
        self != .gpsUTC && self != .fileMTime && !self.isFileName && self != .xmpSidecar && self != .takeoutJSON
            && self != .icloudCSV
    }
}

/// When a photo was taken, as a UTC instant, with the evidence for it.
public struct CaptureTime: Sendable, Equatable {
    /// The instant, comparable with event windows.
    public var instant: Date
    /// The wall clock as the camera wrote it, when it wrote one; for a video dated in UTC, the
    /// wall clock in the zone at its position.
    public var localTime: LocalDateTime?
    /// Seconds east of UTC that turned ``localTime`` into ``instant``.
    public var offsetSeconds: Int?
    public var source: CaptureSource
    /// The IANA zone assumed, for ``CaptureSource/exifAssumedZone``.
    public var assumedZone: String?
    /// The IANA zone that turned ``localTime`` into ``instant``: the zone at the GPS position, or
    /// the assumed one. Nil when an offset alone did (the camera's, or its GPS fix's). For a
    /// video, the zone at its position, where that zone agrees with its time.
    public var zone: String?
    /// The file has a GPS position that dated nothing: no zone boundaries were at hand, or they
    /// could not be read. A run that has them dates the file again.
    public var positionUnused: Bool
    /// Values found and refused, and DST ambiguities met, in words.
    public var notes: [String]
    /// Seconds added to the camera's clock (``ClockOffset``) before it was read: ``localTime``
    /// is the corrected wall clock, ``cameraTime`` the one the camera wrote. Nil when none was.
    public var clockOffset: Int?

    public init(
        instant: Date, localTime: LocalDateTime? = nil, offsetSeconds: Int? = nil, source: CaptureSource,
        assumedZone: String? = nil, zone: String? = nil, positionUnused: Bool = false, notes: [String] = []
    ) {
        self.instant = instant
        self.localTime = localTime
        self.offsetSeconds = offsetSeconds
        self.source = source
        self.assumedZone = assumedZone
        self.zone = zone ?? assumedZone
        self.positionUnused = positionUnused
        self.notes = notes
    }

    /// The day a file dated to a day only (``CaptureSource/fileNameDay``) covers, from its first
    /// instant to its last, in the zone it was read in (23 or 25 hours across a DST change).
    public var wholeDay: ClosedRange<Date>? {
        guard self.source == .fileNameDay, let day = self.localTime,
            let zone = self.assumedZone.flatMap(TimeZone.init(identifier:))
        else { return nil }
        let next = LocalDateTime(day.instant(offsetSeconds: 0).addingTimeInterval(86_400), offsetSeconds: 0)
        let end = next.instant(offsetSeconds: CaptureTimeResolver.offset(of: next, in: zone).seconds)
        return self.instant...end.addingTimeInterval(-0.001)
    }

    /// `+05:45` style, or nil when no offset applies.
    public var offset: String? { self.offsetSeconds.map(UTCOffset.format) }

    /// The wall clock as the camera wrote it, before a clock offset corrected it.
    public var cameraTime: LocalDateTime? {
        guard let local = self.localTime else { return nil }
        return local.adding(seconds: -(self.clockOffset ?? 0))
    }

    /// The camera's clock as a clock offset is asked for it: its wall time, or for a video dated
    /// in UTC with no zone, that UTC time.
    public var cameraClock: LocalDateTime {
        self.cameraTime
            ?? LocalDateTime(self.instant.addingTimeInterval(-Double(self.clockOffset ?? 0)), offsetSeconds: 0)
    }

    /// Where the time came from, as reports say it: the source, with `+clock-offset` when the
    /// camera's clock was corrected (`exif-assumed-zone+clock-offset`).
    public var sourceName: String {
        self.source.rawValue + (self.clockOffset == nil ? "" : "+clock-offset")
    }

    /// The same capture under another clock correction (`seconds`, nil for none), worked out from
    /// what it holds, without the file: the clock moved by the difference and read again as the
    /// rule that dated it reads it. Nil where that rule could read a moved clock otherwise (a GPS
    /// position's zone, a fix compared with the clock): the file is then read again.
    public func recorrected(to seconds: Int?) -> CaptureTime? {
        let difference = (seconds ?? 0) - (self.clockOffset ?? 0)
        var capture = self
        capture.clockOffset = seconds
        switch self.source {
        case .exifOffset, .quickTimeOffset, .quickTimeUTC, .quickTimeUserData:
            capture.instant = self.instant.addingTimeInterval(Double(difference))
            capture.localTime = self.localTime?.adding(seconds: difference)
            return capture
        case .exifAssumedZone:
            guard let name = self.assumedZone, let zone = TimeZone(identifier: name), let wall = self.localTime else {
                return nil
            }
            let moved = wall.adding(seconds: difference)
            let offset = CaptureTimeResolver.offset(of: moved, in: zone).seconds
            (capture.localTime, capture.offsetSeconds) = (moved, offset)
            capture.instant = moved.instant(offsetSeconds: offset)
            return capture
        default:
            return nil
        }
    }

    /// The same time with the camera's clock moved by `seconds`: for a time the rules read without
    /// a wall clock to move first (a video's).
    public func corrected(by seconds: Int) -> CaptureTime {
        var capture = self
        capture.instant = self.instant.addingTimeInterval(Double(seconds))
        capture.localTime = self.localTime?.adding(seconds: seconds)
        capture.clockOffset = seconds
        return capture
    }
}
