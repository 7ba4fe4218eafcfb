import Foundation
import IngestCore
import IngestDating
import Testing

/// The sources of a capture time, weighed in one ordered list: each step reads what the steps
/// before it found.
@Suite struct CaptureTimeResolverPrecedenceTests {
    let resolver = CaptureTimeResolver(
        assumedZone: TimeZone(identifier: "UTC")!, now: RFC3339.parse("2026-01-01T00:00:00Z")!)
    let modified = RFC3339.parse("2025-12-24T12:00:00Z")!
    let exif = ExifTimeFields(dateTimeOriginal: "2019:05:12 10:11:12", offsetTimeOriginal: "+02:00")

    func evidence(
        _ exif: ExifTimeFields?, name: String = "IMG_0001.jpg", sidecar: XMPFields? = nil,
        export: CaptureEvidence.Export? = nil
    ) -> CaptureEvidence {
        CaptureEvidence(
            embedded: .photo(exif), path: "/card/" + name, fileModified: self.modified, sidecar: sidecar,
            export: export)
    }

    @Test("The file's own time, then a sidecar's over it: the person's correction wins")
    func aSidecarWinsOverTheFile() {
        let own = self.resolver.resolve(self.evidence(self.exif))
        #expect(own.source == .exifOffset)
        #expect(own.instant == RFC3339.parse("2019-05-12T08:11:12Z"))
        let corrected = self.resolver.resolve(
            self.evidence(self.exif, sidecar: XMPFields(dateTimeOriginal: "2019-05-12T11:11:12+02:00")))
        #expect(corrected.source == .xmpSidecar)
        #expect(corrected.instant == RFC3339.parse("2019-05-12T09:11:12Z"))
    }

    @Test("With no time of its own, the export's record; with none, the name; with no name, the mtime")
    func weakerSourcesFillIn() {
        let icloud = self.resolver.resolve(self.evidence(nil, export: .icloud(seconds: 1_759_000_000)))
        #expect(icloud.source == .icloudCSV)
        #expect(icloud.instant == Date(timeIntervalSince1970: 1_759_000_000))
        let named = self.resolver.resolve(self.evidence(nil, name: "IMG_20250927_183000.jpg"))
        #expect(named.source == .fileName)
        let nothing = self.resolver.resolve(self.evidence(nil))
        #expect(nothing.source == .fileMTime)
        #expect(nothing.instant == self.modified)
    }

    @Test("A sidecar or export that could not be read leaves the file's time, and the notes say why")
    func unreadableSourcesAreSaid() {
        var evidence = self.evidence(self.exif, export: .unreadable("the Takeout JSON x.json was not read: cut"))
        evidence.sidecarProblem = "the XMP sidecar x.xmp was not read: no packet"
        let capture = self.resolver.resolve(evidence)
        #expect(capture.source == .exifOffset)
        #expect(capture.notes.contains("the XMP sidecar x.xmp was not read: no packet"))
        #expect(capture.notes.contains("the Takeout JSON x.json was not read: cut"))
    }
}
