import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Where each container keeps its EXIF, and what the locator does with blocks that are not there.
@Suite struct ExifLocatorTests {
    static let tiff: [UInt8] = {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker"))]
        return builder.tiff()
    }()

    /// The TIFF block found in `bytes`, copied out, or nil.
    func block(_ bytes: [UInt8], _ kind: MediaKind) -> [UInt8]? {
        bytes.withUnsafeBytes { ExifLocator.tiffBlock(in: $0, kind: kind).map { Array($0) } }
    }

    @Test("A JPEG's APP1 that holds XMP is passed over for the one that holds EXIF")
    func jpegSkipsXMPApp1() {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker"))]
        let xmp = Array("http://ns.adobe.com/xap/1.0/\u{0}<x:xmpmeta/>".utf8)
        #expect(self.block(builder.jpeg(segmentsBefore: [(0xE1, xmp)]), .jpeg) == Self.tiff)
    }

    @Test("TIFF-based files are their own block; videos and a bare JPEG XL codestream have none")
    func wholeFilesAndNone() {
        for kind: MediaKind in [.tiff, .dng, .nef, .arw, .pef, .rw2, .orf, .cr2] {
            #expect(self.block(Self.tiff, kind) == Self.tiff, "\(kind)")
        }
        for kind: MediaKind in [.mp4, .quickTime, .threeGPP, .cr3] {
            #expect(self.block(Self.tiff, kind) == nil, "\(kind)")
        }
        #expect(self.block([0xFF, 0x0A] + Self.tiff, .jxl) == nil)
    }

    @Test("JPEG XL in its container: the Exif box, after its 4-byte offset to the TIFF header")
    func jpegXLBox() {
        let box = ExifBuilder.isoBox
        let signature = box("JXL ", [0x0D, 0x0A, 0x87, 0x0A])
        let file = signature + box("ftyp", Array("jxl \0\0\0\0jxl ".utf8)) + box("Exif", [0, 0, 0, 0] + Self.tiff)
        #expect(self.block(file, .jxl) == Self.tiff)
        // An offset past the box's end finds nothing rather than reading beyond it.
        let pastTheEnd = signature + box("Exif", [0, 0, 0x10, 0] + Self.tiff)
        #expect(self.block(pastTheEnd, .jxl) == nil)
    }

    @Test("Writers put stray bytes before the TIFF header: up to 16 are passed over, more are not")
    func strayBytesBeforeTheHeader() {
        #expect(self.block(ExifBuilder.pngWithExif([0, 0, 0, 0, 0, 0, 0] + Self.tiff), .png) == Self.tiff)
        #expect(self.block(ExifBuilder.pngWithExif([UInt8](repeating: 0, count: 17) + Self.tiff), .png) == nil)
    }

    @Test("A PNG chunk whose length passes the file's end ends the search")
    func pngChunkPastTheEnd() {
        var png = ExifBuilder.pngWithExif(Self.tiff)
        // The eXIf chunk's length, after the signature and the 25-byte IHDR chunk.
        png.replaceSubrange(33..<37, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(self.block(png, .png) == nil)
    }

    @Test("HEIF: an Exif item whose extent lies outside the file is not read")
    func heifExtentOutsideTheFile() {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker"))]
        var heif = builder.heif(prefixed: true)
        #expect(self.block(heif, .heic) == Self.tiff)
        // Cut the file inside the item: iloc now points past its end.
        heif.removeLast(8)
        #expect(self.block(heif, .heic) == nil)
    }

    @Test("The block found is a view into the file, never a copy or past its end")
    func theBlockIsInsideTheFile() {
        var builder = ExifBuilder()
        builder.ifd0 = [(0x010F, .ascii("Maker"))]
        for (bytes, kind) in [
            (builder.jpeg(), MediaKind.jpeg), (builder.webp(), .webp), (builder.heif(prefixed: false), .heic),
        ] {
            bytes.withUnsafeBytes { raw in
                guard let block = ExifLocator.tiffBlock(in: raw, kind: kind), let start = raw.baseAddress,
                    let base = block.baseAddress
                else {
                    Issue.record("no block in the \(kind)")
                    return
                }
                #expect(base >= start && base + block.count <= start + raw.count, "\(kind)")
            }
        }
    }
}
