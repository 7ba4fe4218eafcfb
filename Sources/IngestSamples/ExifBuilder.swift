/// Builds EXIF blocks and the containers that carry them, byte by byte, so that tests can put
/// a tag in any IFD and an EXIF block anywhere a real device puts one.
public struct ExifBuilder {
    public typealias Value = TIFFDirectoryWriter.Value

    /// Tags of IFD0, the EXIF sub-IFD and the GPS sub-IFD, by number.
    public var ifd0: [(UInt16, Value)] = []
    public var exif: [(UInt16, Value)] = []
    public var gps: [(UInt16, Value)] = []
    public var bigEndian = false

    public init() {}

    /// The TIFF structure (starting `II*\0` or `MM\0*`).
    public func tiff() -> [UInt8] {
        let writer = TIFFDirectoryWriter(bigEndian: self.bigEndian)
        var out: [UInt8] = self.bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        out += writer.u32(8)
        // Layout: IFD0, then EXIF IFD, then GPS IFD, each followed by its out-of-line values. A
        // directory's size does not depend on the pointers' values.
        func ifd0(exif: Int, gps: Int) -> [(UInt16, Value)] {
            self.ifd0 + (self.exif.isEmpty ? [] : [(0x8769, .long([exif]))])
                + (self.gps.isEmpty ? [] : [(0x8825, .long([gps]))])
        }
        let exifOffset = 8 + writer.directory(ifd0(exif: 0, gps: 0), at: 8).count
        let gpsOffset = exifOffset + (self.exif.isEmpty ? 0 : writer.directory(self.exif, at: exifOffset).count)
        out += writer.directory(ifd0(exif: exifOffset, gps: gpsOffset), at: 8)
        if !self.exif.isEmpty { out += writer.directory(self.exif, at: exifOffset) }
        if !self.gps.isEmpty { out += writer.directory(self.gps, at: gpsOffset) }
        return out
    }

    /// The APP1 payload: `Exif\0\0` then the TIFF structure.
    public func app1Payload() -> [UInt8] { Array("Exif".utf8) + [0, 0] + self.tiff() }

    /// A minimal JPEG whose EXIF comes after `segmentsBefore` (marker, payload) segments.
    public func jpeg(segmentsBefore: [(UInt8, [UInt8])] = []) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in segmentsBefore + [(0xE1, self.app1Payload())] {
            out += [0xFF, marker] + Self.be16(payload.count + 2) + payload
        }
        return out + [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
    }

    /// A PNG signature and IHDR, then the `eXIf` chunk (CRCs are not checked by the locator).
    public func png() -> [UInt8] { Self.pngWithExif(self.tiff()) }

    /// A PNG whose `eXIf` chunk holds `payload` as it is (a TIFF structure, or anything else).
    public static func pngWithExif(_ payload: [UInt8]) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = Self.be32(13) + Array("IHDR".utf8) + [UInt8](repeating: 1, count: 13) + [0, 0, 0, 0]
        let exif = Self.be32(payload.count) + Array("eXIf".utf8) + payload + [0, 0, 0, 0]
        return signature + ihdr + exif + Self.be32(0) + Array("IEND".utf8) + [0, 0, 0, 0]
    }

    /// An extended WebP with an `EXIF` chunk (with or without the `Exif\0\0` prefix some writers add).
    public func webp(prefixed: Bool = false) -> [UInt8] {
        let payload = prefixed ? self.app1Payload() : self.tiff()
        let vp8x = Array("VP8X".utf8) + Self.le32(10) + [UInt8](repeating: 0, count: 10)
        var exif = Array("EXIF".utf8) + Self.le32(payload.count) + payload
        if payload.count % 2 == 1 { exif.append(0) }
        let body = Array("WEBP".utf8) + vp8x + exif
        return Array("RIFF".utf8) + Self.le32(body.count) + body
    }

    /// A HEIF with one `Exif` item located by `iloc`. The item holds the 4-byte offset to the TIFF
    /// header, then (when `prefixed`) `Exif\0\0`, then the TIFF structure.
    public func heif(prefixed: Bool) -> [UInt8] {
        let item = (prefixed ? Self.be32(6) + Array("Exif".utf8) + [0, 0] : Self.be32(0)) + self.tiff()
        let ftyp = Self.isoBox("ftyp", Array("heic".utf8) + Self.be32(0) + Array("mif1heic".utf8))
        let infe = Self.isoBox("infe", [2, 0, 0, 0] + Self.be16(1) + Self.be16(0) + Array("Exif".utf8) + [0])
        let iinf = Self.isoBox("iinf", [0, 0, 0, 0] + Self.be16(1) + infe)
        // iloc version 0, offset and length 4 bytes, no base offset; the offset is patched below.
        func iloc(_ offset: Int) -> [UInt8] {
            Self.isoBox(
                "iloc",
                [0, 0, 0, 0, 0x44, 0x00] + Self.be16(1) + Self.be16(1) + Self.be16(0) + Self.be16(1)
                    + Self.be32(offset) + Self.be32(item.count))
        }
        let hdlr = Self.isoBox(
            "hdlr", [0, 0, 0, 0] + Self.be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        func meta(_ offset: Int) -> [UInt8] { Self.isoBox("meta", [0, 0, 0, 0] + hdlr + iinf + iloc(offset)) }
        let headerSize = ftyp.count + meta(0).count + 8
        return ftyp + meta(headerSize) + Self.isoBox("mdat", item)
    }

    /// An ISO base media box: 32-bit size, four-letter type, payload.
    public static func isoBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        Self.be32(payload.count + 8) + Array(type.utf8) + payload
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    public static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) } }
}
