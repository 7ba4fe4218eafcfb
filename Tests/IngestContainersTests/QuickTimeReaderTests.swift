import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// A `moov` built box by box, as an iPhone and FFmpeg write one, and what the reader takes from it.
@Suite struct QuickTimeReaderTests {
    let box = ExifBuilder.isoBox

    let be32 = ExifBuilder.be32

    /// A box whose type has QuickTime's © (0xA9) as its first byte.
    func copyrightBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        self.be32(payload.count + 8) + [0xA9] + Array(type.utf8) + payload
    }

    /// `mvhd`, version 0 (32-bit times) or 1 (64-bit), created `created` seconds after 1904.
    func mvhd(created: Int, version: UInt8) -> [UInt8] {
        let time = version == 1 ? [0, 0, 0, 0] + self.be32(created) : self.be32(created)
        return self.box("mvhd", [version, 0, 0, 0] + time + time + [UInt8](repeating: 0, count: 80))
    }

    /// A track of `handler` ("vide", "soun") whose display matrix turns it by `degrees`.
    func trak(_ handler: String, degrees: Int) -> [UInt8] {
        let (a, b): (Int, Int) = [0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)][degrees]!
        // a, b, u, c, d, v in 16.16 fixed point, x, y, then w in 2.30.
        let matrix = [a << 16, b << 16, 0, -b << 16, a << 16, 0, 0, 0, 1 << 30].flatMap(self.be32)
        let tkhd = self.box(
            "tkhd", [0, 0, 0, 3] + [UInt8](repeating: 0, count: 36) + matrix + [UInt8](repeating: 0, count: 8))
        let hdlr = self.box(
            "hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        return self.box("trak", tkhd + self.box("mdia", hdlr))
    }

    /// An `ilst` item's `data` box holding UTF-8 text (type indicator 1).
    func data(_ text: String) -> [UInt8] { self.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(text.utf8)) }

    /// QuickTime's `meta` (no version): `hdlr`, `keys` naming each item, `ilst` holding them by index.
    func meta(_ items: [(key: String, value: String)]) -> [UInt8] {
        let hdlr = self.box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12))
        let keys = items.flatMap { self.be32($0.key.utf8.count + 8) + Array("mdta".utf8) + Array($0.key.utf8) }
        let ilst = items.indices.flatMap { index in
            self.be32(self.data(items[index].value).count + 8) + self.be32(index + 1) + self.data(items[index].value)
        }
        return self.box(
            "meta", hdlr + self.box("keys", [0, 0, 0, 0] + self.be32(items.count) + keys) + self.box("ilst", ilst))
    }

    func fields(_ moov: [UInt8]) -> QuickTimeFields {
        moov.withUnsafeBytes { QuickTimeReader.fields(moov: $0) }
    }

    @Test("An iPhone's keys: creation date with its offset, location, Live Photo identifier; mvhd's time")
    func applesKeys() {
        let fields = self.fields(
            self.mvhd(created: 3_841_000_000, version: 0) + self.trak("vide", degrees: 90)
                + self.meta([
                    ("com.apple.quicktime.location.ISO6709", "+27.7172+085.3240+1300.000/"),
                    ("com.apple.quicktime.creationdate", "2025-09-27T21:39:00-0700"),
                    ("com.apple.quicktime.content.identifier", "2A1F7B1C-0000-4F0A-9C39-6A0E5F1F2D11"),
                ]))
        #expect(fields.movieCreated == 3_841_000_000)
        #expect(fields.appleCreationDate == "2025-09-27T21:39:00-0700")
        #expect(fields.location == "+27.7172+085.3240+1300.000/")
        #expect(fields.contentIdentifier == "2A1F7B1C-0000-4F0A-9C39-6A0E5F1F2D11")
        #expect(fields.rotation == 90)
    }

    @Test("A camera's user data: ©day and ©xyz as QuickTime text; mvhd version 1's 64-bit time")
    func userData() {
        let text = { (value: String) in [0, UInt8(value.utf8.count), 0x15, 0xC7] + Array(value.utf8) }
        let udta = self.box(
            "udta",
            self.copyrightBox("day", text("2025-09-27T21:39:00+0545")) + self.copyrightBox("xyz", text("+27.7+085.3/")))
        let fields = self.fields(self.mvhd(created: 5_000_000_000 - (1 << 32), version: 1) + udta)
        #expect(fields.movieCreated == 5_000_000_000 - (1 << 32))
        #expect(fields.userDataDate == "2025-09-27T21:39:00+0545")
        #expect(fields.location == "+27.7+085.3/")
        #expect(fields.appleCreationDate == nil && fields.contentIdentifier == nil)
    }

    @Test("Rotation comes from the video track's matrix, not a sound track's", arguments: [0, 90, 180, 270])
    func rotationOfTheVideoTrack(degrees: Int) {
        let fields = self.fields(self.trak("soun", degrees: 90) + self.trak("vide", degrees: degrees))
        #expect(fields.rotation == degrees)
    }

    @Test("Boxes cut short anywhere give fewer fields, never a read past the end")
    func truncations() {
        let whole =
            self.mvhd(created: 3_841_000_000, version: 0)
            + self.meta([("com.apple.quicktime.creationdate", "2025-09-27T21:39:00-0700")])
        #expect(self.fields(whole).appleCreationDate != nil)
        for cut in 0..<whole.count {
            // A cut inside the meta box loses the date; only the whole box gives it.
            let fields = self.fields(Array(whole.prefix(cut)))
            #expect(fields.appleCreationDate == nil, "cut at \(cut)")
        }
        #expect(self.fields([]) == QuickTimeFields())
    }
}
