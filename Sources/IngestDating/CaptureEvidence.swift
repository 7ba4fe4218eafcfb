import Foundation
import IngestCore

/// Everything a file offers to date it, as the read stage found it: its own fields, its XMP
/// sidecar's, its export's (a Google Takeout JSON or an iCloud CSV row), its name and its
/// modification time. ``CaptureTimeResolver/resolve(_:)`` weighs them in the order of
/// ``CaptureTimeResolver/precedence``.
public struct CaptureEvidence {
    /// The file's own fields: a photo's EXIF (nil where it has none), or a video's `moov`.
    public enum Embedded {
        case photo(ExifTimeFields?)
        case video(QuickTimeFields)
    }

    /// What the file's export says of it.
    public enum Export {
        /// Its Google Takeout JSON.
        case takeout(TakeoutFields)
        /// Its row of an iCloud export's Photo Details.csv, as seconds since 1970 in UTC.
        case icloud(seconds: Int64)
        /// A sidecar that could not be read: why, for the notes.
        case unreadable(String)
    }

    public var embedded: Embedded
    public var path: String
    public var fileModified: Date
    /// The seconds to add to the camera's wall clock (``ClockOffset``), asked with the clock as written.
    public var clockOffset: (LocalDateTime) -> Int?
    /// The XMP sidecar's fields, and why one was not read.
    public var sidecar: XMPFields?
    public var sidecarProblem: String?
    public var export: Export?

    public init(
        embedded: Embedded, path: String, fileModified: Date,
        clockOffset: @escaping (LocalDateTime) -> Int? = { _ in nil },
        sidecar: XMPFields? = nil, sidecarProblem: String? = nil, export: Export? = nil
    ) {
        self.embedded = embedded
        self.path = path
        self.fileModified = fileModified
        self.clockOffset = clockOffset
        self.sidecar = sidecar
        self.sidecarProblem = sidecarProblem
        self.export = export
    }

    /// A position that stands for the EXIF's: the sidecar's (geotagged in an editor), else the
    /// Takeout JSON's.
    var position: GeoPosition? {
        var unused: [String] = []
        if let position = self.sidecar?.gpsPosition(notes: &unused) { return position }
        if case .takeout(let fields)? = self.export { return fields.position }
        return nil
    }
}
