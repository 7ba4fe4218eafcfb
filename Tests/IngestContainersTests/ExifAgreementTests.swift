import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestTesting
import Testing

/// photoingest's EXIF reading against exiftool's, over every file of the shared real corpus.
@Suite struct ExifAgreementTests {
    /// Files where photoingest and exiftool disagree, and why photoingest is right.
    static let knownDisagreements: [String: String] = [:]

    struct Disagreement: CustomStringConvertible {
        var file: String
        var field: String
        var ours: String
        var exiftool: String
        var description: String { "\(self.file): \(self.field) is \(self.ours), exiftool says \(self.exiftool)" }
    }

    /// The value exiftool reports for a tag in the EXIF IFD, or in IFD0 when only there.
    static func exiftoolString(_ entry: [String: Any], _ tag: String, groups: [String]) -> String? {
        for group in groups {
            if let value = entry["\(group):\(tag)"] { return "\(value)".trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// Digits without leading zeros: exiftool's JSON gives SubSecTime "070" as the number 70.
    static func subSecond(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let stripped = text.drop { $0 == "0" }
        return stripped.isEmpty ? "0" : String(stripped)
    }

    @Test func rawTimeValuesAgreeWithExiftoolOnTheWholeRealCorpus() throws {
        let files = TestEnvironment.files(under: TestEnvironment.realCorpus).filter {
            $0.lastPathComponent != "README.md"
        }
        try #require(files.count > 100, "the shared corpus is missing at \(TestEnvironment.realCorpus.path)")
        let oracle = try Fixtures.exiftool(
            [
                "-a", "-G1", "-api", "QuickTimeUTC", "-EXIF:all", "-GPS:all", "-Composite:SubSecDateTimeOriginal",
                "-Composite:GPSDateTime",
            ], files: files)
        var disagreements: [Disagreement] = []
        var compared = 0
        var instantsCompared = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
                continue
            }
            let fields = bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: kind) }
            let entry = oracle[file.path] ?? [:]
            let name = file.path.replacingOccurrences(of: TestEnvironment.realCorpus.path + "/", with: "")
            func check(_ field: String, _ ours: String?, _ theirs: String?) {
                compared += 1
                if ours != theirs {
                    disagreements.append(
                        Disagreement(file: name, field: field, ours: ours ?? "nil", exiftool: theirs ?? "nil"))
                }
            }
            let exifGroups = ["ExifIFD", "IFD0"]
            check(
                "DateTimeOriginal", fields?.dateTimeOriginal?.trimmingCharacters(in: .whitespaces),
                Self.exiftoolString(entry, "DateTimeOriginal", groups: exifGroups))
            check(
                "OffsetTimeOriginal", fields?.offsetTimeOriginal?.trimmingCharacters(in: .whitespaces),
                Self.exiftoolString(entry, "OffsetTimeOriginal", groups: exifGroups))
            check(
                "SubSecTimeOriginal", Self.subSecond(fields?.subSecTimeOriginal),
                Self.subSecond(Self.exiftoolString(entry, "SubSecTimeOriginal", groups: exifGroups)))
            check(
                "GPSDateStamp", fields?.gpsDateStamp?.trimmingCharacters(in: .whitespaces),
                Self.exiftoolString(entry, "GPSDateStamp", groups: ["GPS"]))
            let ourGPSTime = fields?.gpsTimeStamp.flatMap { stamp -> String? in
                guard stamp.count == 3, stamp.allSatisfy({ $0.denominator != 0 }) else { return nil }
                let seconds = stamp.enumerated().reduce(0.0) { total, part in
                    total + Double(part.element.numerator) / Double(part.element.denominator)
                        * [3600, 60, 1][part.offset]
                }
                return String(format: "%.2f", seconds)
            }
            let theirGPSTime = Self.exiftoolString(entry, "GPSTimeStamp", groups: ["GPS"]).map { text -> String in
                let parts = text.split(separator: ":").compactMap { Double($0) }
                return String(format: "%.2f", parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1)
            }
            check("GPSTimeStamp", ourGPSTime, theirGPSTime)

            // Where exiftool shows an offset, the UTC instants agree to the second.
            if let composite = entry["Composite:SubSecDateTimeOriginal"] as? String,
                let offset = composite.suffix(6).first, offset == "+" || offset == "-"
            {
                let capture = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!)
                    .resolve(fields, fileModified: Date())
                var iso = composite
                iso.replaceSubrange(
                    iso.startIndex..<iso.index(iso.startIndex, offsetBy: 10),
                    with: composite.prefix(10).replacingOccurrences(of: ":", with: "-"))
                iso = iso.replacingOccurrences(of: " ", with: "T")
                let theirs = RFC3339.parse(iso)
                instantsCompared += 1
                if capture.source != .exifOffset || theirs == nil
                    || abs(capture.instant.timeIntervalSince(theirs!)) >= 1
                {
                    disagreements.append(
                        Disagreement(
                            file: name, field: "UTC instant",
                            ours: "\(RFC3339.format(capture.instant)) (\(capture.source.rawValue))",
                            exiftool: composite))
                }
            }
        }
        let unexplained = disagreements.filter { Self.knownDisagreements[$0.file] == nil }
        let listing = unexplained.map(\.description).joined(separator: "\n")
        #expect(unexplained.isEmpty, "\(unexplained.count) disagreements:\n\(listing)")
        #expect(compared > 500)
        #expect(instantsCompared >= 3)
    }
}
