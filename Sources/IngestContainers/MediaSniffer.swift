import IngestCore

/// Tells what a file is from its first bytes (and, for a TIFF, from its directories).
public enum MediaSniffer {
    /// How many leading bytes ``sniff(_:)`` needs to decide.
    public static let headerLength = 64

    /// Decides what the bytes are by their magic numbers.
    public static func sniff(_ head: some Collection<UInt8>) -> Sniffed {
        let bytes = Array(head.prefix(self.headerLength))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if bytes.isEmpty { return .unsupported(reason: "empty file") }
        // Raw formats with magic numbers of their own, before TIFF's: CR2 is a TIFF marked `CR` at 8.
        if starts([0x49, 0x49, 0x2A, 0x00]) && ascii("CR", at: 8) { return .supported(.cr2) }
        if starts([0x49, 0x49, 0x55, 0x00]) { return .supported(.rw2) }
        if ascii("IIRO") || ascii("IIRS") || ascii("MMOR") { return .supported(.orf) }
        if starts(FujifilmRAF.magic) { return .supported(.raf) }
        if starts([0x49, 0x49, 0x1A, 0x00]) && ascii("HEAPCCDR", at: 6) {
            return .unsupported(reason: "Canon CRW raw photos are not supported")
        }
        if ascii("FOVb") { return .unsupported(reason: "Sigma X3F raw photos are not supported") }
        // Start of image is all libjpeg asks for: it passes over stray bytes before the next
        // marker (a warning), so a JPEG with them is libjpeg's to decode or refuse, with its reason.
        if starts([0xFF, 0xD8]) { return .supported(.jpeg) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .supported(.png) }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .supported(.tiff) }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return .supported(.webp) }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            return self.sniffISOBaseMedia(bytes)
        }
        // QuickTime files from before `ftyp`: they start with one of these atoms.
        if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(where: { ascii($0, at: 4) }) {
            return .supported(.quickTime)
        }
        if ascii("GIF8") { return .unsupported(reason: "GIF images are not supported") }
        if starts([0x42, 0x4D]) && bytes.count >= 14 { return .unsupported(reason: "BMP images are not supported") }
        if ascii("RIFF") && ascii("AVI ", at: 8) { return .unsupported(reason: "video (AVI) is not supported yet") }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            return .unsupported(reason: "video (Matroska/WebM) is not supported yet")
        }
        if ascii("%PDF") { return .unsupported(reason: "PDF documents are not supported") }
        // JPEG XL: a bare codestream, or the ISO BMFF container's signature box.
        if starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) || starts([0xFF, 0x0A]) {
            return .supported(.jxl)
        }
        return .unsupported(reason: "not a supported image format (\(self.formatList)) or video (MP4, MOV, 3GP)")
    }

    /// The photo formats taken, for messages and `--help`.
    public static let formatList =
        "JPEG, HEIC/HEIF, AVIF, WebP, PNG, TIFF, JPEG XL; raw DNG, CR2, CR3, NEF, ARW, RAF, RW2, ORF, PEF"

    /// The kind of a whole file whose first bytes said `kind`: a TIFF may be a DNG, NEF, ARW or
    /// PEF, which only its directories tell.
    public static func refine(_ kind: MediaKind, _ bytes: UnsafeRawBufferPointer) -> MediaKind {
        guard kind == .tiff, let tiff = TIFFStructure(bytes) else { return kind }
        return tiff.rawKind ?? kind
    }

    /// ISO base media files (`ftyp` box) are HEIF images or videos depending on their brands.
    private static func sniffISOBaseMedia(_ bytes: [UInt8]) -> Sniffed {
        let brands = bytes.withUnsafeBytes { raw -> [String] in
            let reader = ByteReader(raw)
            // A box cut by the 64 bytes looked at still names its first brands.
            let end = min(raw.count, max(Int(reader.u32be(0)), 12))
            // Major brand at 8, minor version at 12, compatible brands from 16.
            return [8].map(reader.fourCC) + stride(from: 16, through: end - 4, by: 4).map(reader.fourCC)
        }
        let avif: Set = ["avif", "avis"]
        let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
        // The generic HEIF brands say "an image file" and leave the codec to the compatible brands.
        let generic: Set = ["mif1", "msf1"]
        let major = brands[0]
        if avif.contains(major) { return .supported(.avif) }
        if heic.contains(major) { return .supported(.heic) }
        if brands.contains(where: avif.contains) { return .supported(.avif) }
        if brands.contains(where: heic.contains) || brands.contains(where: generic.contains) {
            return .supported(.heic)
        }
        if major == "crx " { return .supported(.cr3) }
        if ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "].contains(major) {
            return .unsupported(reason: "audio files are not supported")
        }
        if major == "qt  " { return .supported(.quickTime) }
        if major.hasPrefix("3gp") || major.hasPrefix("3g2") { return .supported(.threeGPP) }
        let mp4: Set = [
            "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP", "MSNV",
            "dash", "f4v ", "XAVC", "mmp4",
        ]
        if mp4.contains(major) || brands.contains(where: mp4.contains) { return .supported(.mp4) }
        return .unsupported(reason: "ISO media file of brand \"\(major)\" is not a supported photo or video")
    }
}
