import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestTesting
import Testing

/// Videos' capture time and rotation against exiftool's (`-api QuickTimeUTC`), over the shared
/// corpus's real videos and exiftool's QuickTime sample.
@Suite struct VideoAgreementTests {
    static var videos: [URL] {
        TestEnvironment.files(under: TestEnvironment.mediaCorpus.appendingPathComponent("video"))
            + [TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/QuickTime.mov")]
    }

    /// The `moov` box's fields, found by walking the file's top-level boxes.
    static func fields(of url: URL) throws -> QuickTimeFields? {
        let bytes = Array(try Data(contentsOf: url))
        return bytes.withUnsafeBytes { raw -> QuickTimeFields? in
            let reader = ByteReader(raw)
            guard let moov = ISOBox.find("moov", in: reader, range: 0..<reader.count) else { return nil }
            return QuickTimeReader.fields(moov: UnsafeRawBufferPointer(rebasing: raw[moov.payload]))
        }
    }

    /// exiftool's `2019:07:24 11:25:40+03:00` as an instant; nil without a zone or for a zero date.
    static func instant(_ value: Any?) -> Date? {
        guard var text = value as? String, !text.hasPrefix("0000") else { return nil }
        if text.hasSuffix("Z") { text = String(text.dropLast()) + "+00:00" }
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: parts[0].replacingOccurrences(of: ":", with: "-") + "T" + parts[1])
    }

    @Test("Each video's instant and its source are exiftool's, by the documented order of precedence")
    func captureTimesAgreeWithExiftool() throws {
        let files = Self.videos
        try #require(files.count >= 12, "the shared media corpus is missing at \(TestEnvironment.mediaCorpus.path)")
        let oracle = try Fixtures.exiftool(
            ["-a", "-G1", "-api", "QuickTimeUTC", "-time:all", "-Rotation"], files: files)
        let resolver = CaptureTimeResolver(assumedZone: TimeZone(identifier: "Pacific/Auckland")!)
        let mtime = Date(timeIntervalSince1970: 0)
        var dated = 0
        for file in files {
            let entry = oracle[file.path] ?? [:]
            let fields = try #require(try Self.fields(of: file), "\(file.lastPathComponent): no moov box")
            let capture = resolver.resolve(fields, fileModified: mtime)
            let expected: (Date, CaptureSource)? =
                Self.instant(entry["Keys:CreationDate"]).map { ($0, .quickTimeOffset) }
                ?? Self.instant(entry["QuickTime:CreateDate"]).map { ($0, .quickTimeUTC) }
                ?? Self.instant(entry["UserData:DateTimeOriginal"] ?? entry["UserData:ContentCreateDate"]).map {
                    ($0, .quickTimeUserData)
                }
            if let (instant, source) = expected {
                #expect(
                    capture.instant == instant,
                    "\(file.lastPathComponent): \(capture.instant) against exiftool's \(instant)")
                #expect(capture.source == source, "\(file.lastPathComponent): \(capture.source) against \(source)")
                dated += 1
            } else {
                #expect(
                    capture.source == .fileMTime,
                    "\(file.lastPathComponent): dated \(capture.instant) where exiftool has no date")
            }
            #expect(
                fields.rotation == (entry["Composite:Rotation"] as? Int ?? 0), "\(file.lastPathComponent): rotation")
        }
        #expect(dated >= 11, "only \(dated) videos carried a date exiftool agrees with")
    }

    @Test("Apple's key wins over mvhd, with its own offset: the iPhone video is 08:25:40 UTC, +03:00")
    func applesCreationDateCarriesTheOffset() throws {
        let fields = try #require(
            try Self.fields(of: TestEnvironment.mediaCorpus.appendingPathComponent("video/with-gps.mov")))
        let capture = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!).resolve(
            fields, fileModified: Date())
        #expect(capture.source == .quickTimeOffset)
        #expect(capture.offset == "+03:00")
        #expect(capture.instant == RFC3339.parse("2019-07-24T08:25:40Z"))
        #expect(fields.location == "+32.0929+034.8620+028.516/")
    }

    @Test("An unset (0) or pre-1970 mvhd time is no date: the user-data date with its zone, else the file's mtime")
    func unsetMovieTimesAreNoDate() {
        let resolver = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!)
        let mtime = Date(timeIntervalSince1970: 1_700_000_000)
        let unset = resolver.resolve(
            QuickTimeFields(movieCreated: 0, userDataDate: "2020-11-20T15:04:02+0100"), fileModified: mtime)
        #expect(unset.source == .quickTimeUserData)
        #expect(unset.instant == RFC3339.parse("2020-11-20T14:04:02Z"))
        #expect(unset.notes.contains("mvhd creation time is 0 (unset)"))
        let early = resolver.resolve(
            QuickTimeFields(movieCreated: 86_400, userDataDate: "2020-11-20 15:04:02"), fileModified: mtime)
        #expect(early.source == .fileMTime)
        #expect(early.instant == mtime)
        #expect(early.notes.contains { $0.contains("before 1970") })
        #expect(early.notes.contains { $0.contains("names no zone") })
        // A 64-bit time far past any calendar (fuzzing found it trapping): no date, said so.
        let far = resolver.resolve(QuickTimeFields(movieCreated: UInt64.max), fileModified: mtime)
        #expect(far.source == .fileMTime)
        #expect(far.notes.contains("mvhd creation time is more than a day in the future: no date"))
    }
}
