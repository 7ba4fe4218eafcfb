import Foundation
import IngestContainers
import IngestCore
import Testing

@Suite struct XMPPacketTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sidecars")

    func fields(_ name: String) throws -> XMPFields {
        let bytes = Array(try Data(contentsOf: Self.samples.appendingPathComponent(name)))
        return try XMPPacket.fields(in: bytes).get()
    }

    /// Why the packet `text` was refused; nil when it was read.
    func refusal(_ bytes: [UInt8]) -> String? {
        if case .failure(let refusal) = XMPPacket.fields(in: bytes) { refusal.description } else { nil }
    }

    @Test("Each writer's sidecar gives its capture time and position, attribute or element, never ModifyDate")
    func writers() throws {
        #expect(
            try self.fields("lightroom-retouch.xmp")
                == XMPFields(
                    dateTimeOriginal: "2014-03-11T16:34:43.30", dateCreated: "2014-03-11T16:34:43.30",
                    gpsLatitude: "49,25.6178333333N", gpsLongitude: "0,13.4846666667E"))
        #expect(
            try self.fields("camera-raw-EOS30D.xmp")
                == XMPFields(dateTimeOriginal: "2007-12-04T19:07:02", dateCreated: "2007-12-04T19:07:02"))
        // Lightroom Classic wrote no exif:DateTimeOriginal here; its ModifyDate is not a capture time.
        #expect(try self.fields("lightroom-IMG_5910.xmp") == XMPFields(dateCreated: "2015-06-11T10:29:26.69"))
        #expect(
            try self.fields("exiftool-P6000.xmp")
                == XMPFields(
                    dateTimeOriginal: "2008-12-14T13:55:22", gpsLatitude: "0,0.000000N",
                    gpsLongitude: "0,0.000000E"))
        #expect(
            try self.fields("darktable-form.NEF.xmp")
                == XMPFields(
                    dateTimeOriginal: "2023:08:14 18:02:45.120", gpsLatitude: "35,39.6120N",
                    gpsLongitude: "139,42.1800E"))
        // photoshop: bound to `ps`: read by its namespace, not its prefix.
        #expect(try self.fields("digikam-form.jpg.xmp") == XMPFields(dateCreated: "2018-10-06T13:20:38"))
        #expect(try self.fields("digikam-sample.jpg.xmp").isEmpty)
    }

    @Test("A prefix means the namespace it is bound to where it is used; a structure is not a value")
    func namespaces() throws {
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description xmlns:exif="http://example.com/not-exif/" exif:DateTimeOriginal="1999-01-01T00:00:00"/>
             <rdf:Description xmlns:e="http://ns.adobe.com/exif/1.0/">
              <e:GPSLatitude><rdf:Alt><rdf:li>1,2N</rdf:li></rdf:Alt></e:GPSLatitude>
              <DateTimeOriginal xmlns="http://ns.adobe.com/exif/1.0/"> 2020-02-02T02:02:02Z </DateTimeOriginal>
             </rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        #expect(try XMPPacket.fields(in: Array(text.utf8)).get() == XMPFields(dateTimeOriginal: "2020-02-02T02:02:02Z"))
    }

    @Test("What is not a plain XMP packet is refused with the reason, before or while parsing")
    func refusals() {
        let entities = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">&b;</x:xmpmeta>
            """
        #expect(self.refusal(Array(entities.utf8)) == "declares a document type (not read)")
        #expect(self.refusal(Array("<x:xmpmeta><rdf:RDF>".utf8)) == "not well-formed XML (line 1)")
        #expect(self.refusal([]) == "empty")
        #expect(
            self.refusal([UInt8](repeating: UInt8(ascii: " "), count: XMPPacket.sizeLimit + 1)) == "larger than 4 MiB")
    }

    @Test("Packets parsed from many tasks at once each give their own fields")
    func concurrent() async throws {
        let texts = (0..<64).map { index in
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2020-01-01T00:00:\(String(format: "%02d", index % 60))"/>
            </rdf:RDF></x:xmpmeta>
            """
        }
        let results = await withTaskGroup(of: (Int, String?).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, try? XMPPacket.fields(in: Array(text.utf8)).get().dateTimeOriginal) }
            }
            return await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<64 {
            #expect(results[index] == "2020-01-01T00:00:\(String(format: "%02d", index % 60))")
        }
    }
}
