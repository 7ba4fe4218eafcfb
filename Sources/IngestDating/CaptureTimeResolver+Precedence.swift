import Foundation
import IngestCore

/// The order in which a file's sources of a capture time are weighed: one list, each source
/// reading what those before it found and keeping, refining or replacing it.
extension CaptureTimeResolver {
    /// A source of capture times, as a step of ``resolve(_:)``.
    public enum Source: Sendable, CaseIterable {
        /// The file's own fields (EXIF or QuickTime), with its GPS, the zone and the camera's
        /// clock correction; with none, its mtime.
        case embedded
        /// Its XMP sidecar's time, the person's correction, over the file's own.
        case sidecar
        /// Its export's record (Google Takeout's JSON, iCloud's CSV row), where the file's own
        /// time is missing or weaker.
        case export
        /// Its name (`IMG_20250927_183000.jpg`), where nothing before gave a time of the camera's.
        case name
    }

    /// The sources in the order they are weighed. A new source of capture times takes its place
    /// here, its rule in a `CaptureTimeResolver+Source.swift` of its own.
    public static let precedence: [Source] = [.embedded, .sidecar, .export, .name]

    /// The capture time of a file: each source of ``precedence`` over what those before it found.
    public func resolve(_ evidence: CaptureEvidence) -> CaptureTime {
        var capture = CaptureTime(instant: evidence.fileModified, source: .fileMTime)
        for source in Self.precedence { capture = self.weigh(source, evidence, over: capture) }
        return capture
    }

    /// One step of ``resolve(_:)``.
    func weigh(_ source: Source, _ evidence: CaptureEvidence, over capture: CaptureTime) -> CaptureTime {
        switch source {
        case .embedded:
            switch evidence.embedded {
            case .video(let fields):
                return self.resolve(fields, fileModified: evidence.fileModified, clockOffset: evidence.clockOffset)
            case .photo(let fields):
                return self.resolve(
                    fields, fileModified: evidence.fileModified, position: evidence.position,
                    clockOffset: evidence.clockOffset)
            }
        case .sidecar:
            var capture = capture
            if let problem = evidence.sidecarProblem { capture.notes.append(problem) }
            guard let fields = evidence.sidecar else { return capture }
            let exif: ExifTimeFields? = if case .photo(let fields) = evidence.embedded { fields } else { nil }
            return self.sidecar(fields, over: capture, exif: exif)
        case .export:
            switch evidence.export {
            case nil: return capture
            case .icloud(let seconds)?: return self.icloud(seconds, over: capture)
            case .takeout(let fields)?: return self.takeout(fields, over: capture)
            case .unreadable(let why)?:
                var capture = capture
                capture.notes.append(why)
                return capture
            }
        case .name:
            return self.named(capture, path: evidence.path, fileModified: evidence.fileModified)
        }
    }
}
