import Foundation
import IngestCore
import IngestTesting
import Testing

/// XMP sidecars through the built binary: a time corrected in an editor dates its file, the
/// sidecar is kept beside the original in the archive, and a sidecar written or changed later
/// dates its file again on the next run.
@Suite struct SidecarRunTests {
    /// A Lightroom-style sidecar: the properties as attributes of `rdf:Description`.
    static func lightroom(_ time: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
           xmp:ModifyDate="2025-01-01T10:00:00+01:00"
           xmp:MetadataDate="2025-01-01T10:00:00+01:00"
           exif:DateTimeOriginal="\(time)"
           photoshop:DateCreated="\(time)">
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    static let window = ["--from", "2024-05-04T09:00:00Z", "--until", "2024-05-04T11:00:00Z"]

    @Test("A sidecar's time dates its file, it is kept beside the original, and a new or changed one re-dates")
    func sidecars() throws {
        let folder = TemporaryFolder("sidecar-run")
        // By its EXIF 08:00Z, outside the window; its sidecar moves it to 09:30Z.
        let first = try Fixtures.jpeg(
            in: folder, name: "IMG_1.jpg",
            tags: ["EXIF:DateTimeOriginal": "2024:05:04 10:00:00", "EXIF:OffsetTimeOriginal": "+02:00"])
        try Self.lightroom("2024-05-04T11:30:00.25+02:00").write(
            to: folder.appending("IMG_1.xmp"), atomically: true, encoding: .utf8)
        // No EXIF at all; exiftool writes its sidecar (the element form) as NAME.EXT.xmp.
        let second = try Fixtures.jpeg(in: folder, name: "IMG_2.JPG")
        try Fixtures.check(
            runProgram(
                "exiftool",
                [
                    "-q", "-o", folder.appending("IMG_2.JPG.xmp").path,
                    "-XMP-exif:DateTimeOriginal=2024:05:04 12:00:00+02:00", second.path,
                ]))
        // Outside by its EXIF (12:00Z) until a sidecar is written for it.
        _ = try Fixtures.jpeg(
            in: folder, name: "IMG_3.jpg",
            tags: ["EXIF:DateTimeOriginal": "2024:05:04 14:00:00", "EXIF:OffsetTimeOriginal": "+02:00"])
        try Self.lightroom("2024-05-04T12:00:00+02:00").write(
            to: folder.appending("lost.xmp"), atomically: true, encoding: .utf8)

        let cli = CommandLine("sidecar-run")
        let run = try cli.ingest([folder.url], Self.window)
        #expect(run.status == 0, "\(run.result.stderr)")
        let one = try #require(run.entry(named: "IMG_1.jpg"))
        #expect(one.status == .uploaded)
        #expect(one.captureSource == "xmp-sidecar")
        #expect(one.captureTime == "2024-05-04T09:30:00.250Z")
        #expect(one.sidecar == folder.appending("IMG_1.xmp").path)
        #expect(
            one.captureNotes?.contains { $0.contains("differs from the file's own time (exif-offset) by +01:30:00") }
                == true)
        let two = try #require(run.entry(named: "IMG_2.JPG"))
        #expect(two.status == .uploaded)
        #expect((two.captureSource, two.captureTime, two.offset) == ("xmp-sidecar", "2024-05-04T10:00:00Z", "+02:00"))
        #expect(two.captureNotes == nil, "a file with no time of its own: nothing to disagree with")
        #expect(run.entry(named: "IMG_3.jpg")?.status == .outside)
        #expect(run.entry(named: "lost.xmp")?.reason == "an XMP sidecar with no photo or video of its name beside it")
        #expect(run.summary?.withSidecars == 2)

        // Kept beside the original, byte for byte.
        let hash = try #require(one.sha256)
        let kept = cli.archive.appendingPathComponent("originals/\(hash.prefix(2))/\(hash).xmp")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: folder.appending("IMG_1.xmp")))
        #expect(
            FileManager.default.fileExists(
                atPath: cli.archive.appendingPathComponent(
                    "originals/\(hash.prefix(2))/\(hash).jpg"
                ).path))

        // A sidecar written since dates its file again; the others are not read again.
        try Self.lightroom("2024-05-04T12:15:00+02:00").write(
            to: folder.appending("IMG_3.xmp"), atomically: true, encoding: .utf8)
        let again = try cli.ingest([folder.url], Self.window)
        #expect(again.entry(named: "IMG_3.jpg")?.status == .uploaded)
        #expect(again.entry(named: "IMG_3.jpg")?.captureTime == "2024-05-04T10:15:00Z")
        #expect(again.summary?.event?.counts.uploaded == 1)
        #expect(again.summary?.event?.unchanged == 2, "\(again.result.stdout)")

        // A changed sidecar dates its file again: the event holds it already.
        try Self.lightroom("2024-05-04T11:45:00+02:00").write(
            to: folder.appending("IMG_1.xmp"), atomically: true, encoding: .utf8)
        let changed = try cli.ingest([folder.url], Self.window)
        #expect(changed.entry(named: "IMG_1.jpg")?.captureTime == "2024-05-04T09:45:00Z")
        #expect(changed.entry(named: "IMG_1.jpg")?.status == .duplicate)
        #expect(first.path.hasSuffix("IMG_1.jpg"))
    }

    @Test("Real sidecars of Lightroom, Camera Raw, ExifTool, and the darktable and digiKam forms date their files")
    func writers() throws {
        let samples = TestEnvironment.repository.appendingPathComponent("Tests/IngestContainersTests/Sidecars")
        let folder = TemporaryFolder("sidecar-writers")
        // Each sample beside a photo whose own EXIF says 2024-05-04 10:00:00+02:00: the sidecar's
        // time, read in UTC where it has no offset, wins to the second, fraction kept.
        // Lightroom, Camera Raw and ExifTool name a sidecar NAME.xmp; darktable and digiKam
        // NAME.EXT.xmp.
        let cases: [(sample: String, sidecar: String, time: String)] = [
            ("lightroom-retouch.xmp", "retouch.xmp", "2014-03-11T16:34:43.300Z"),
            ("lightroom-IMG_5910.xmp", "IMG_5910.xmp", "2015-06-11T10:29:26.690Z"),
            ("camera-raw-EOS30D.xmp", "EOS30D.xmp", "2007-12-04T19:07:02Z"),
            ("exiftool-P6000.xmp", "P6000.xmp", "2008-12-14T13:55:22Z"),
            ("darktable-form.NEF.xmp", "darktable.jpg.xmp", "2023-08-14T18:02:45.120Z"),
            ("digikam-form.jpg.xmp", "digikam.jpg.xmp", "2018-10-06T13:20:38Z"),
        ]
        let exif = ["EXIF:DateTimeOriginal": "2024:05:04 10:00:00", "EXIF:OffsetTimeOriginal": "+02:00"]
        for (sample, sidecar, _) in cases {
            let stem = sidecar.components(separatedBy: ".")[0]
            _ = try Fixtures.jpeg(in: folder, name: stem + ".jpg", tags: exif)
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(sample), to: folder.appending(sidecar))
        }
        // Only ModifyDate and MetadataDate: when the sidecar was written, not the photo taken.
        _ = try Fixtures.jpeg(in: folder, name: "modified.jpg", tags: exif)
        try """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
         xmp:ModifyDate="2025-01-01T10:00:00+01:00" xmp:MetadataDate="2025-01-01T10:00:00+01:00"/>
        </rdf:RDF></x:xmpmeta>
        """.write(to: folder.appending("modified.xmp"), atomically: true, encoding: .utf8)

        let run = try CommandLine("sidecar-writers").ingest([folder.url], ["--timezone", "UTC"])
        #expect(run.status == 0, "\(run.result.stderr)")
        for (sample, sidecar, time) in cases {
            let entry = run.entry(named: sidecar.components(separatedBy: ".")[0] + ".jpg")
            #expect(entry?.captureSource == "xmp-sidecar", "\(sample)")
            #expect(entry?.captureTime == time, "\(sample)")
        }
        let modified = run.entry(named: "modified.jpg")
        #expect((modified?.captureSource, modified?.captureTime) == ("exif-offset", "2024-05-04T08:00:00Z"))
        #expect(modified?.sidecar != nil && modified?.captureNotes == nil)
    }

    @Test("A sidecar that is not XMP leaves the file its own time, and says why")
    func brokenSidecar() throws {
        let folder = TemporaryFolder("sidecar-broken")
        _ = try Fixtures.jpeg(
            in: folder, name: "IMG_1.jpg",
            tags: ["EXIF:DateTimeOriginal": "2024:05:04 10:00:00", "EXIF:OffsetTimeOriginal": "+02:00"])
        try "<x:xmpmeta><rdf:RDF>".write(to: folder.appending("IMG_1.xmp"), atomically: true, encoding: .utf8)
        let run = try CommandLine("sidecar-broken").ingest([folder.url])
        #expect(run.status == 0, "\(run.result.stderr)")
        let entry = try #require(run.entry(named: "IMG_1.jpg"))
        #expect(entry.status == .uploaded)
        #expect((entry.captureSource, entry.captureTime) == ("exif-offset", "2024-05-04T08:00:00Z"))
        #expect(entry.captureNotes == ["the XMP sidecar IMG_1.xmp was not read: not well-formed XML (line 1)"])
        let text = try CommandLine("sidecar-text").run(["run", folder.path, "--dry-run"])
        #expect(
            text.stdout.contains("Files with an XMP sidecar, dated by it where it holds a time: 1"), "\(text.stdout)")
    }

    @Test("A sidecar inside a zip file dates its file there, and is kept beside the original")
    func inZip() throws {
        let folder = TemporaryFolder("sidecar-zip")
        let photo = try Fixtures.jpeg(
            in: folder, name: "IMG_1.jpg",
            tags: ["EXIF:DateTimeOriginal": "2024:05:04 10:00:00", "EXIF:OffsetTimeOriginal": "+02:00"])
        let sidecar = folder.appending("IMG_1.xmp")
        try Self.lightroom("2024-05-04T11:30:00.25+02:00").write(to: sidecar, atomically: true, encoding: .utf8)
        let lost = folder.appending("lost.xmp")
        try Self.lightroom("2024-05-04T12:00:00+02:00").write(to: lost, atomically: true, encoding: .utf8)
        let zip = folder.appending("export.zip")
        try ZipRunTests.zip(
            [("Edited/IMG_1.jpg", photo), ("Edited/IMG_1.xmp", sidecar), ("Edited/lost.xmp", lost)], to: zip)

        let cli = CommandLine("sidecar-zip")
        let run = try cli.ingest([zip], Self.window)
        #expect(run.status == 0, "\(run.result.stderr)")
        let one = try #require(run.entry(named: "IMG_1.jpg"))
        #expect(one.captureSource == "xmp-sidecar")
        #expect(one.captureTime == "2024-05-04T09:30:00.250Z")
        #expect(one.sidecar == zip.path + "/Edited/IMG_1.xmp")
        #expect(run.entry(named: "IMG_1.xmp") == nil)
        #expect(run.entry(named: "lost.xmp")?.reason == "an XMP sidecar with no photo or video of its name beside it")
        let hash = try #require(one.sha256)
        let kept = cli.archive.appendingPathComponent("originals/\(hash.prefix(2))/\(hash).xmp")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: sidecar))
    }
}
