import Foundation
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// A Google Takeout read through the built binary: real camera photos and EXIF-less copies in
/// three zip parts, each paired with its JSON by the rule Takeout's names call for, dated by it,
/// stored once; the same export unpacked into folders gives the same outcomes.
@Suite struct TakeoutRunTests {
    /// Real photos of the shared corpus whose EXIF has a time and no zone, and exiftool's time of each.
    static let cameras = [
        "Sony DigitalMavica.jpg", "Olympus C2040Z.jpg", "Olympus X-2.jpg", "Pentax Optio S4.jpg",
        "Sony Cybershot (3).jpg", "FujiFilm FinePixS1Pro (4).jpg", "FujiFilm FinePix1400Zoom (1).jpg",
        "FujiFilm FinePix40i.jpg",
    ]
    static let folder = "Takeout/Google Photos/Photos from 2002"
    static let longName = "Screenshot_20200505-120000_a_very_long_title_kept.jpg"

    /// A JSON as Takeout writes it: the time as a string of seconds, `formatted` localized.
    static func json(_ seconds: Int, title: String, trashed: Bool = false) -> Data {
        var object: [String: Any] = [
            "title": title, "description": "",
            "photoTakenTime": ["timestamp": "\(seconds)", "formatted": "localized, never read"],
            "geoData": ["latitude": 0.0, "longitude": 0.0, "altitude": 0.0],
        ]
        if trashed { object["trashed"] = true }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    /// The export's files: (name inside the zip, bytes, part 1-3), and per photo the instant
    /// and source it must be dated by (nil: not dated, left out).
    struct Export {
        var files: [(name: String, data: Data, part: Int)] = []
        var expected: [String: (source: String, seconds: Int)] = [:]
    }

    static func export(in work: TemporaryFolder) throws -> Export {
        let real = TestEnvironment.realCorpus.appendingPathComponent("jpeg")
        let photos = Self.cameras.map { real.appendingPathComponent($0) }
        let exif = try Fixtures.exiftool(["-DateTimeOriginal"], files: photos)
        func wall(_ index: Int) throws -> Int {
            let text = try #require(exif[photos[index].path]?["DateTimeOriginal"] as? String)
            let parser = DateFormatter()
            parser.locale = Locale(identifier: "en_US_POSIX")
            parser.timeZone = TimeZone(identifier: "UTC")
            parser.dateFormat = "yyyy:MM:dd HH:mm:ss"
            return Int(try #require(parser.date(from: text)).timeIntervalSince1970)
        }
        func bytes(_ index: Int) throws -> Data { try Data(contentsOf: photos[index]) }
        // An EXIF-less copy, as Google keeps an edited or shared image.
        func stripped(_ index: Int) throws -> Data {
            let copy = work.appending("stripped-\(index).jpg")
            try Fixtures.check(runProgram("exiftool", ["-q", "-all=", "-o", copy.path, photos[index].path]))
            return try Data(contentsOf: copy)
        }
        let folder = Self.folder
        var export = Export()
        func add(_ name: String, _ data: Data, part: Int, in place: String = folder) {
            export.files.append(("\(place)/\(name)", data, part))
        }
        // The camera's clock had no zone: Google's instant, an hour or two earlier, gives it.
        add("P1.jpg", try bytes(0), part: 1)
        add("P1.jpg.json", Self.json(try wall(0) - 3_600, title: "P1.jpg"), part: 1)
        export.expected["P1.jpg"] = ("takeout-json", try wall(0) - 3_600)
        // Its JSON in another part, under its whole supplemental name.
        add("P2.jpg", try bytes(1), part: 1)
        add("P2.jpg.supplemental-metadata.json", Self.json(try wall(1) - 7_200, title: "P2.jpg"), part: 2)
        export.expected["P2.jpg"] = ("takeout-json", try wall(1) - 7_200)
        // No EXIF, a long name cut to 46 for its JSON.
        let cut = String(Self.longName.utf16.prefix(46))!
        add(Self.longName, try stripped(2), part: 1)
        add(cut + ".json", Self.json(1_588_680_000, title: Self.longName), part: 2)
        export.expected[Self.longName] = ("takeout-json", 1_588_680_000)
        // A numbered copy, its `(1)` behind the extension in the JSON's name.
        add("P4(1).jpg", try stripped(3), part: 2)
        add("P4.jpg(1).json", Self.json(1_000_000_000, title: "Birthday: the cake.jpg"), part: 2)
        export.expected["P4(1).jpg"] = ("takeout-json", 1_000_000_000)
        // The supplemental suffix cut short, and an edited copy sharing its original's JSON.
        add("P5.jpg", try stripped(4), part: 2)
        add("P5.jpg.supplemental-me.json", Self.json(1_100_000_000, title: "P5.jpg"), part: 2)
        add("P5-edited.jpg", try stripped(5), part: 3)
        export.expected["P5.jpg"] = ("takeout-json", 1_100_000_000)
        export.expected["P5-edited.jpg"] = ("takeout-json", 1_100_000_000)
        // In Google Photos' bin.
        add("T.jpg", try bytes(6), part: 3)
        add("T.jpg.json", Self.json(try wall(6) + 18_000, title: "T.jpg", trashed: true), part: 3)
        // No JSON: dated as any file is, and counted.
        add("G.jpg", try bytes(7), part: 3)
        export.expected["G.jpg"] = ("exif-assumed-zone", try wall(7))
        // A JSON whose photo is not in the export, and an album holding P1 again.
        add("lost.jpg.json", Self.json(1_300_000_000, title: "lost.jpg"), part: 1)
        add("P1.jpg", try bytes(0), part: 3, in: "Takeout/Google Photos/Trip")
        add("P1.jpg.json", Self.json(try wall(0) - 3_600, title: "P1.jpg"), part: 3, in: "Takeout/Google Photos/Trip")
        add("metadata.json", Data(#"{"title": "Trip"}"#.utf8), part: 3, in: "Takeout/Google Photos/Trip")
        return export
    }

    /// The export written as three zip parts (the third stored) in `parts`, and unpacked into `unpacked`.
    static func write(_ export: Export, parts: URL, unpacked: URL, work: TemporaryFolder) throws {
        let staging = work.appending("staging")
        for file in export.files {
            let target = unpacked.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: target)
            let staged = staging.appendingPathComponent("\(file.part)/\(file.name)")
            try FileManager.default.createDirectory(
                at: staged.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: staged)
        }
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        for part in 1...3 {
            let members = export.files.filter { $0.part == part }.map {
                ($0.name, staging.appendingPathComponent("\(part)/\($0.name)"))
            }
            try ZipRunTests.zip(
                members, to: parts.appendingPathComponent("takeout-20260101T000000Z-00\(part).zip"), stored: part == 3)
        }
    }

    @Test(
        "A Takeout in three zip parts: each file dated by its JSON's rule, stored once, never unpacked; the same unpacked"
    )
    func takeout() throws {
        let work = TemporaryFolder("takeout-run")
        let export = try Self.export(in: work)
        let parts = work.appending("parts")
        let unpacked = work.appending("unpacked")
        try Self.write(export, parts: parts, unpacked: unpacked, work: work)
        let scratch = work.appending("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

        let cli = CommandLine("takeout-zips")
        let options = ["--timezone", "UTC"]
        let run = try cli.ingest([parts], options, environment: ["TMPDIR": scratch.path])
        #expect(run.status == 0, "\(run.result.stderr)")
        let listing = run.entries.map {
            "\($0.path) \($0.status) \($0.captureSource ?? "") \($0.reason ?? $0.error ?? "")"
        }
        for (name, expected) in export.expected {
            let entry = try #require(run.entries.first { $0.path.hasSuffix("/Photos from 2002/" + name) }, "\(name)")
            // P1 is in an album too: one is stored, the other a duplicate of it, whichever is done first.
            #expect(entry.status == .uploaded || name == "P1.jpg", "\(name): \(listing)")
            #expect(entry.captureSource == expected.source, "\(name): \(entry.captureNotes ?? [])")
            let time = try #require(entry.captureTime.flatMap(Self.instant))
            #expect(Int(time.timeIntervalSince1970) == expected.seconds, "\(name)")
        }
        // P1's camera clock was an hour ahead of UTC: the JSON says so, the local time stays the camera's.
        #expect(run.entry(named: "Photos from 2002/P1.jpg")?.offset == "+01:00")
        #expect(
            run.entry(named: "Photos from 2002/P2.jpg")?.takeoutJSON?.hasSuffix(
                "-002.zip/\(Self.folder)/P2.jpg.supplemental-metadata.json") == true)
        #expect(run.entry(named: "P5-edited.jpg")?.takeoutRule == "edited")
        #expect(run.entry(named: "P4(1).jpg")?.takeoutRule == "shortened")
        // The title is the name the photo is kept under (an edited copy keeps its own).
        let names = try runProgram(
            "sqlite3", [cli.archive.appendingPathComponent("index.sqlite").path, "SELECT filename FROM event_photo"])
        let kept = Set(names.stdout.split(separator: "\n").map(String.init))
        #expect(kept.isSuperset(of: ["Birthday_ the cake.jpg", "P5-edited.jpg", "P5.jpg", Self.longName]), "\(kept)")
        #expect(!kept.contains("P4(1).jpg"))
        let trashed = try #require(run.entry(named: "T.jpg"))
        #expect(trashed.status == .skipped)
        #expect(trashed.reason?.contains("in Google Photos' bin") == true)
        let copies = run.entries.filter { $0.path.hasSuffix("/P1.jpg") }.map(\.status)
        #expect(copies.sorted { "\($0)" < "\($1)" } == [.duplicate, .uploaded])
        #expect(run.entry(named: "lost.jpg.json")?.reason?.contains("no photo or video beside it pairs with") == true)
        #expect(run.entry(named: "metadata.json")?.status == .skipped)
        // A JSON that a file took is no file of its own.
        #expect(run.entry(named: "P1.jpg.json") == nil && run.entry(named: "P4.jpg(1).json") == nil)
        let counts = try #require(run.summary?.takeout)
        // T.jpg is paired by name, then left out for the bin.
        #expect(counts.paired == ["name": 4, "shortened": 3, "edited": 1] && counts.withoutJSON == 1, "\(counts)")
        #expect(counts.jsonWithoutFile == 2)
        // Nothing unpacked: no temporary file, nothing beside the parts.
        #expect(TestEnvironment.files(under: scratch).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).count == 3)

        // A re-run decides from the zips' directories alone.
        let again = try cli.ingest([parts], options, environment: ["TMPDIR": scratch.path])
        #expect(again.status == 0, "\(again.result.stderr)")
        #expect(again.summary?.event?.bytes == 0)
        // Every file unchanged; the two JSONs without a file are reported again, as any walk problem is.
        #expect(again.summary?.event?.unchanged == run.entries.count - 2)

        // From the bin when asked: the trashed photo is taken, its JSON read again.
        let trash = try cli.ingest([parts], options + ["--include-trashed"])
        #expect(trash.entry(named: "T.jpg")?.status == .uploaded)
        #expect(trash.entry(named: "T.jpg")?.captureSource == "takeout-json")
        #expect(trash.entry(named: "T.jpg")?.offset == "-05:00")

        // The same export unpacked into one folder: the same outcome, source, time and hash per file.
        let folder = try CommandLine("takeout-folders").ingest([unpacked], options)
        #expect(folder.status == 0, "\(folder.result.stderr)")
        #expect(folder.summary?.takeout == counts)
        #expect(folder.entries.count == run.entries.count)
        for entry in run.entries {
            let inside = String(entry.path[entry.path.range(of: ".zip/")!.upperBound...])
            let unzipped = try #require(folder.entries.first { $0.path == unpacked.path + "/" + inside }, "\(inside)")
            // P1 is in two folders: one is stored, the other a duplicate of it, whichever is done first.
            if !inside.hasSuffix("/P1.jpg") { #expect(unzipped.status == entry.status, "\(inside)") }
            #expect(
                unzipped.captureSource == entry.captureSource && unzipped.captureTime == entry.captureTime, "\(inside)")
            #expect(unzipped.sha256 == entry.sha256 && unzipped.takeoutRule == entry.takeoutRule, "\(inside)")
        }
    }

    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
