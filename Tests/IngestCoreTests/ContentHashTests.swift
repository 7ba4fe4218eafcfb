import Foundation
import IngestCore
import IngestHashing
import Testing

@Suite struct ContentHashTests {
    // SHA-256 of "abc", from FIPS 180-2.
    let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test func hashesLikeTheStandard() {
        #expect(ContentHasher.hash(Array("abc".utf8)).hex == self.abc)
        #expect(ContentHasher.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func streamingEqualsOneShot() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = ContentHasher()
        for chunk in stride(from: 0, to: bytes.count, by: 4093) {
            bytes[chunk..<min(chunk + 4093, bytes.count)].withUnsafeBytes { hasher.update($0) }
        }
        #expect(hasher.finalize() == ContentHasher.hash(bytes))
    }

    @Test(
        "Every spelling the API uses parses to the same hash",
        arguments: [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad_3247891_2024-09-27T14:09:22Z",
            "  ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n",
        ])
    func parsesSpellings(text: String) {
        #expect(ContentHash(parsing: text)?.hex == self.abc)
        #expect(ContentHash(parsing: text)?.prefixed == "sha256:" + self.abc)
    }

    @Test(arguments: [
        "", "abc", "sha256:",
        // Control bytes that would read as "256:" if folded to lower case with the letters.
        "sha\u{12}\u{15}\u{16}\u{1A}ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", String(repeating: "a", count: 65),
    ])
    func refusesWhatIsNotAHash(text: String) {
        #expect(ContentHash(parsing: text) == nil)
    }
}

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
