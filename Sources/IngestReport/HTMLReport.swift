import Foundation
import IngestCore
import IngestDating
import Mustache

/// The run report as one self-contained HTML file: per event the summary line, a timeline of the
/// window with every dated photo, and contact sheets by outcome. Built from swift-mustache
/// templates (`ReportTemplates`), which escape every value they insert: file names never reach
/// the page as markup. No font, no external script, nothing fetched but the thumbnails.
public enum HTMLReport {
    /// The page for `page`, its pictures from `thumbnails`.
    public static func render(_ page: ReportPage, thumbnails: ReportThumbnails) async -> String {
        let order = page.events.flatMap { event in
            [FileStatus.outside, .uploaded, .duplicate, .undated, .skipped, .pending].flatMap { event.photos($0) }
        }
        let found = await thumbnails.find(order)
        let view = PageView(page, pictures: found)
        guard let html = ReportTemplates.library.render(view, withTemplate: "page") else {
            preconditionFailure("the report's page template is not registered")
        }
        return html
    }

    /// The sections of the contact sheets, in the order a reader asks about them.
    static let sections: [FileStatus] = [.uploaded, .duplicate, .outside, .undated, .failed, .pending, .skipped]

    /// A status in the run summary's words.
    static func label(_ status: FileStatus, archive: Bool) -> String {
        switch status {
        case .uploaded: archive ? "Stored" : "Uploaded"
        case .duplicate: "Duplicates"
        case .outside: "Outside event dates"
        case .undated: "Undated"
        case .failed: "Failed"
        case .pending: "Pending"
        case .skipped: "Skipped"
        }
    }

    /// A status's shape, beside its colour: colour is never the only cue.
    static func glyph(_ status: FileStatus) -> String {
        switch status {
        case .uploaded: "●"
        case .duplicate: "■"
        case .outside: "▲"
        case .undated: "?"
        case .failed: "✖"
        case .pending: "◌"
        case .skipped: "◆"
        }
    }

    /// Where the capture time and its zone came from, in words.
    static func source(_ capture: CaptureTime?) -> String {
        guard let capture else { return "no capture time" }
        let offset = capture.offset.map { " \($0)" } ?? ""
        switch capture.source {
        case .exifOffset: return "EXIF time with the camera's offset\(offset)"
        case .exifGPSAgreed:
            return "EXIF time, offset\(offset) from the GPS clock, as in \(capture.zone ?? ""), where it was taken"
        case .exifGPSPosition:
            return "EXIF time read in \(capture.zone ?? "")\(offset), where it was taken (GPS position)"
        case .exifGPSOffset: return "EXIF time, offset\(offset) from the GPS clock"
        case .exifAssumedZone:
            return "EXIF time without a zone, read in the assumed zone \(capture.assumedZone ?? "")\(offset)"
        case .gpsUTC: return "GPS time (UTC)"
        case .fileMTime: return "no capture time in the file: its modification time"
        case .fileName:
            let zone = capture.assumedZone.map { " read in the assumed zone \($0)" } ?? " (UTC)"
            return "no capture time in the file: the date and time in its name\(zone)\(offset)"
        case .fileNameMTime: return "the day in its name, the time of day its modification time's"
        case .fileNameDay: return "the day in its name only: placed only where the window holds the whole day"
        case .quickTimeOffset:
            let place = capture.zone.map { ", as in \($0), where it was taken" } ?? ""
            return "the video's local time with its offset\(offset)\(place)"
        case .quickTimeUTC:
            let place = capture.zone.map { ", shown in \($0)\(offset), where it was taken" } ?? ""
            return "the video's creation time (UTC)\(place)"
        case .quickTimeUserData: return "the video's user data time\(offset)"
        case .xmpSidecar:
            let zone =
                capture.assumedZone.map { ", read in the assumed zone \($0)" }
                ?? capture.zone.map { ", read in \($0), where it was taken" } ?? ""
            return "the time in its XMP sidecar (an editor's correction)\(zone)\(offset)"
        case .takeoutJSON:
            return capture.localTime == nil
                ? "the time in its Google Takeout JSON (UTC)"
                : "the camera's time, with the offset its Google Takeout JSON's time gives\(offset)"
        case .icloudCSV: return "the time iCloud's Photo Details.csv gives (UTC, to the minute)"
        }
    }

    /// `2 h 5 min`, `40 s`, `3 d 4 h`.
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return "\(whole / 60) min" }
        if whole < 86_400 { return "\(whole / 3_600) h \(whole % 3_600 / 60) min" }
        return "\(whole / 86_400) d \(whole % 86_400 / 3_600) h"
    }

    /// How far out an outside photo is, and on which side of the window.
    static func outside(_ photo: ReportPhoto, window: EventWindow) -> String? {
        guard photo.status == .outside, let by = photo.outsideBy, let instant = photo.capture?.instant else {
            return nil
        }
        let before = window.start.map { instant < $0 } ?? false
        return Self.duration(by) + (before ? " before the window opens" : " after the window closes")
    }
}
