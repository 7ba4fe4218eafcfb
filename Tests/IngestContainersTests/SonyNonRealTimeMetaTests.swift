import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// A Sony video's NonRealTimeMeta: the `Device` element under the root names the body.
@Suite struct SonyNonRealTimeMetaTests {
    func body(_ box: [UInt8]) -> CameraBody? {
        box.withUnsafeBytes { SonyNonRealTimeMeta.body(ByteReader($0), meta: 8..<$0.count) }
    }

    func document(_ text: String) -> CameraBody? {
        try? SonyNonRealTimeMeta.body(in: Array(text.utf8)).get()
    }

    @Test("The Device element's maker, model and serial, entities resolved")
    func reads() {
        #expect(
            self.body(MakerMovieBoxes.sony(make: "Sony", model: "ILCE-7M4", serial: "3012345"))
                == CameraBody(make: "Sony", model: "ILCE-7M4", serial: "3012345"))
        #expect(
            self.document(#"<NonRealTimeMeta><Device manufacturer="A&amp;B" serialNo="12"/></NonRealTimeMeta>"#)
                == CameraBody(make: "A&B", serial: "12"))
    }

    @Test("A Device elsewhere than under the root, another root, another handler: no body")
    func elsewhere() {
        #expect(
            self.document(#"<NonRealTimeMeta><Kit><Device serialNo="1"/></Kit></NonRealTimeMeta>"#)
                == CameraBody())
        #expect(self.document(#"<Other><Device serialNo="1"/></Other>"#) == CameraBody())
        var box = MakerMovieBoxes.sony(make: "Sony", model: "ILCE-7M4", serial: "3012345")
        let handler = box.indices.first { box[$0..<$0 + 4].elementsEqual(Array("nrtm".utf8)) }!
        box.replaceSubrange(handler..<handler + 4, with: Array("mdir".utf8))
        #expect(self.body(box) == nil)
    }

    @Test("Malformed XML, a document type, a value too long: refused or left out, never read past")
    func hostile() {
        #expect(self.document("<NonRealTimeMeta><Device serialNo=\"1\">") == nil)
        #expect(
            self.document(#"<!DOCTYPE x [<!ENTITY a "b">]><NonRealTimeMeta><Device serialNo="&a;"/></NonRealTimeMeta>"#)
                == nil)
        let long = String(repeating: "9", count: 200)
        #expect(
            self.document(#"<NonRealTimeMeta><Device serialNo="\#(long)" modelName="X"/></NonRealTimeMeta>"#)
                == CameraBody(model: "X"))
        let box = MakerMovieBoxes.sony(make: "Sony", model: "ILCE-7M4", serial: "3012345")
        for length in stride(from: 0, to: box.count, by: 13) {
            let cut = Array(box.prefix(length))
            let body = cut.withUnsafeBytes {
                SonyNonRealTimeMeta.body(ByteReader($0), meta: min(8, $0.count)..<$0.count)
            }
            #expect(body == nil)
        }
    }
}
