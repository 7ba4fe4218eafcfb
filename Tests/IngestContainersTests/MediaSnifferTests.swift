import IngestContainers
import IngestCore
import Testing

@Suite struct MediaSnifferTests {
    func bytes(_ prefix: [UInt8], _ ascii: String = "") -> [UInt8] {
        prefix + Array(ascii.utf8) + [UInt8](repeating: 0, count: 32)
    }

    @Test func decidesByContent() {
        #expect(MediaSniffer.sniff(self.bytes([0xFF, 0xD8, 0xFF, 0xE1])) == .supported(.jpeg))
        // Stray bytes after the start of image: still libjpeg's to judge.
        #expect(MediaSniffer.sniff(self.bytes([0xFF, 0xD8, 0xFE, 0xDC])) == .supported(.jpeg))
        #expect(MediaSniffer.sniff(self.bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == .supported(.png))
        #expect(MediaSniffer.sniff(self.bytes([0x49, 0x49, 0x2A, 0x00])) == .supported(.tiff))
        #expect(MediaSniffer.sniff(self.bytes([0x4D, 0x4D, 0x00, 0x2A])) == .supported(.tiff))
        #expect(MediaSniffer.sniff(self.bytes([], "RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ")) == .supported(.webp))
        #expect(
            MediaSniffer.sniff(self.bytes([0, 0, 0, 0x18], "ftypheic\u{0}\u{0}\u{0}\u{0}mif1heic")) == .supported(.heic)
        )
        #expect(
            MediaSniffer.sniff(self.bytes([0, 0, 0, 0x18], "ftypmif1\u{0}\u{0}\u{0}\u{0}mif1avif")) == .supported(.avif)
        )
        #expect(
            MediaSniffer.sniff(self.bytes([0, 0, 0, 0x18], "ftypavif\u{0}\u{0}\u{0}\u{0}avifmif1")) == .supported(.avif)
        )
    }

    @Test("Videos by their brands: MP4 and M4V, QuickTime (also from before ftyp), 3GPP")
    func decidesVideosByBrand() {
        let ftyp = { (brands: String) in self.bytes([0, 0, 0, UInt8(8 + brands.utf8.count)], "ftyp" + brands) }
        #expect(MediaSniffer.sniff(ftyp("isom\u{0}\u{0}\u{2}\u{0}isomiso2avc1mp41")) == .supported(.mp4))
        #expect(MediaSniffer.sniff(ftyp("mp42\u{0}\u{0}\u{0}\u{0}isommp42")) == .supported(.mp4))
        #expect(MediaSniffer.sniff(ftyp("M4V \u{0}\u{0}\u{0}\u{1}M4V M4A mp42isom")) == .supported(.mp4))
        #expect(MediaSniffer.sniff(ftyp("qt  \u{0}\u{0}\u{0}\u{0}qt  ")) == .supported(.quickTime))
        #expect(MediaSniffer.sniff(ftyp("3gp5\u{0}\u{0}\u{2}\u{0}3gp5isom")) == .supported(.threeGPP))
        #expect(MediaSniffer.sniff(self.bytes([0, 0, 0x10, 0], "moov")) == .supported(.quickTime))
        #expect(MediaSniffer.sniff(self.bytes([0, 0, 0, 8], "wide")) == .supported(.quickTime))
        // An iPhone's HEIC names HEIF brands alongside MP4's: still a photo.
        #expect(MediaSniffer.sniff(ftyp("heic\u{0}\u{0}\u{0}\u{0}mif1heicmiaf")) == .supported(.heic))
    }

    @Test("Raw formats and JPEG XL by their magic numbers; a CR3 is a photo, not a video")
    func rawFormatsAndJPEGXL() {
        #expect(
            MediaSniffer.sniff(self.bytes([0x49, 0x49, 0x2A, 0, 0x10, 0, 0, 0], "CR\u{2}\u{0}")) == .supported(.cr2))
        #expect(MediaSniffer.sniff(self.bytes([0x49, 0x49, 0x55, 0, 0x18, 0, 0, 0])) == .supported(.rw2))
        #expect(MediaSniffer.sniff(self.bytes([], "IIRO")) == .supported(.orf))
        #expect(MediaSniffer.sniff(self.bytes([], "MMOR")) == .supported(.orf))
        #expect(MediaSniffer.sniff(self.bytes([], "FUJIFILMCCD-RAW 0201")) == .supported(.raf))
        #expect(
            MediaSniffer.sniff(self.bytes([0, 0, 0, 0x18], "ftypcrx \u{0}\u{0}\u{0}\u{1}crx isom")) == .supported(.cr3))
        #expect(MediaSniffer.sniff(self.bytes([0xFF, 0x0A, 0x08, 0x04])) == .supported(.jxl))
        #expect(
            MediaSniffer.sniff(self.bytes([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]))
                == .supported(.jxl))
    }

    /// The reason given for refusing `bytes`, or nil when they were taken for a photo.
    func refusal(_ bytes: [UInt8]) -> String? {
        if case .unsupported(let reason) = MediaSniffer.sniff(bytes) { reason } else { nil }
    }

    @Test func namesWhatItRefuses() throws {
        let audio = try #require(
            self.refusal(self.bytes([0, 0, 0, 0x18], "ftypM4A \u{0}\u{0}\u{0}\u{0}M4A mp42")),
            "audio was taken for a video")
        #expect(audio.contains("audio"))
        let crw = try #require(self.refusal(self.bytes([0x49, 0x49, 0x1A, 0, 0, 0], "HEAPCCDR")), "a CRW was taken")
        #expect(crw.contains("CRW"))
        let x3f = try #require(self.refusal(self.bytes([], "FOVb")), "an X3F was taken")
        #expect(x3f.contains("X3F"))
        #expect(self.refusal([]) == "empty file")
        let gif = try #require(self.refusal(self.bytes([], "GIF89a")), "a GIF was taken for a photo")
        #expect(gif.contains("GIF"))
        let text = try #require(self.refusal(Array("hello, world".utf8)), "text was taken for a photo")
        #expect(text.contains("not a supported image format"))
    }
}
