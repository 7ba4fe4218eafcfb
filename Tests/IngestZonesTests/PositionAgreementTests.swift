import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestImaging
import IngestTesting
import Testing

/// The GPS positions of the shared real corpus, against exiftool's, and what they date.
@Suite struct PositionAgreementTests {
    /// Files whose GPS time and GPS position give different offsets, and how that is resolved; the
    /// same list, with the reasoning, is in docs/capture-time.md.
    static let knownDisagreements: [String: String] = [
        // Paris in August (CEST, +02:00); the camera's clock is an hour ahead of its fix, not two:
        // it kept winter time. The fix (a time of day, no date) wins.
        "jpeg/FujiFilm FinePixS2Pro.jpg": "+01:00"
    ]

    static var files: [URL] {
        TestEnvironment.files(under: TestEnvironment.realCorpus).filter { $0.lastPathComponent != "README.md" }
    }

    static func fields(of file: URL) throws -> ExifTimeFields? {
        let bytes = Array(try Data(contentsOf: file))
        guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
            return nil
        }
        return bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: kind) }
    }

    @Test("Every EXIF GPS position of the real corpus is exiftool's, or refused for a reason exiftool shows")
    func positionsAgreeWithExiftool() throws {
        let files = Self.files
        try #require(files.count > 100, "the shared corpus is missing at \(TestEnvironment.realCorpus.path)")
        let oracle = try Fixtures.exiftool(
            [
                "-G1", "-GPS:GPSLatitudeRef", "-GPS:GPSLongitudeRef", "-Composite:GPSLatitude",
                "-Composite:GPSLongitude",
            ],
            files: files)
        var compared = 0
        var wrong: [String] = []
        for file in files {
            let entry = oracle[file.path] ?? [:]
            var notes: [String] = []
            let ours = try Self.fields(of: file).flatMap { $0.gpsPosition(notes: &notes) }
            guard let latitude = entry["Composite:GPSLatitude"] as? Double,
                let longitude = entry["Composite:GPSLongitude"] as? Double,
                entry["GPS:GPSLatitudeRef"] != nil, entry["GPS:GPSLongitudeRef"] != nil
            else {
                if let ours { wrong.append("\(file.lastPathComponent): \(ours), exiftool has no EXIF position") }
                continue
            }
            compared += 1
            if latitude == 0 && longitude == 0 {
                if ours != nil || !notes.contains(where: { $0.contains("0°, 0°") }) {
                    wrong.append("\(file.lastPathComponent): 0°, 0° taken: \(String(describing: ours))")
                }
            } else if let ours, abs(ours.latitude - latitude) < 1e-6, abs(ours.longitude - longitude) < 1e-6 {
                continue
            } else {
                wrong.append("\(file.lastPathComponent): \(String(describing: ours)) against \(latitude), \(longitude)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        #expect(compared >= 8, "only \(compared) files with positions")
    }

    @Test("Where GPS time and position both date a photo they agree, but for the known disagreements")
    func gpsTimeAgainstPosition() throws {
        let files = Self.files
        let withZones = try CaptureTimeByPositionTests.resolver()
        var withoutZones = withZones
        withoutZones.zones = nil
        var bothApplied = 0
        var disagreements: [String: String] = [:]
        for file in files {
            guard let fields = try Self.fields(of: file) else { continue }
            let byPosition = withZones.resolve(fields, fileModified: Date())
            let byTime = withoutZones.resolve(fields, fileModified: Date())
            let name = file.path.replacingOccurrences(of: TestEnvironment.realCorpus.path + "/", with: "")
            switch byPosition.source {
            case .exifGPSAgreed:
                bothApplied += 1
                // With a GPS date the fix alone gave the same instant before positions were used.
                if byTime.source == .exifGPSOffset { #expect(byPosition.instant == byTime.instant, "\(name)") }
            case .exifGPSOffset where byPosition.notes.contains(where: { $0.contains("disagree") }):
                bothApplied += 1
                disagreements[name] = byPosition.offset
            default:
                break
            }
        }
        #expect(disagreements == Self.knownDisagreements.mapValues { Optional($0) })
        #expect(bothApplied >= 3, "only \(bothApplied) files have both a GPS time and a position")
    }
}
