/// Builds TIFF-based raw files byte by byte, laid out as Olympus (ORF), Pentax (PEF) and Sony
/// (ARW) cameras lay theirs out, around real JPEG previews: no sample of these formats is at hand
/// here, and exiftool cannot write their maker notes into a file. The tests read each file back
/// with exiftool, as it reads the cameras' files, before trusting it.
///
/// - ORF (`IIRO`): the raw strip in IFD0; the preview only in the Olympus maker note
///   (`OLYMPUS\0II`, offsets from the note's start), in its CameraSettings directory (0x2020).
/// - PEF (`MM`): raw (compression 65535) in IFD0, IFD1 (a camera's thumbnail; empty here), the
///   full-size preview (`JpgFromRaw`) in IFD2 when given, and a smaller preview in the Pentax maker
///   note (`AOC\0MM`, offsets from the TIFF header).
/// - ARW (`II`): the preview in IFD0 (JPEGInterchangeFormat), the raw (compression 32767) in a
///   SubIFD.
public struct RawFileBuilder {
    public enum Format: Sendable { case orf, pef, arw }

    public var format: Format
    public var make: String
    public var model: String
    public var dateTimeOriginal: String
    public var orientation = 1
    /// The preview the maker note keeps (ORF, PEF) or IFD0 points to (ARW).
    public var preview: [UInt8]
    /// PEF only: the full-size JPEG of IFD2, when the camera writes one.
    public var fullSize: [UInt8]?

    public init(format: Format, make: String, model: String, dateTimeOriginal: String, preview: [UInt8]) {
        self.format = format
        self.make = make
        self.model = model
        self.dateTimeOriginal = dateTimeOriginal
        self.preview = preview
    }

    // Where each part goes: fixed places with room to spare, so no offset depends on another's size.
    static let ifd0 = 0x0008, ifd1 = 0x0200, ifd2 = 0x0300, subIFD = 0x0380, exif = 0x0400, note = 0x0800
    static let raw = 0x1000, rawLength = 0x1000, images = 0x2000

    /// The whole file: header, directories and maker note at fixed places, the sensor data
    /// (a pattern, never decoded), then the JPEGs.
    public func bytes() -> [UInt8] {
        let bigEndian = self.format == .pef
        var file = [UInt8](repeating: 0, count: Self.images)
        var used: [Range<Int>] = []
        // Each part in its own place: a long Make, say, must not run into the next directory.
        func put(_ bytes: [UInt8], at offset: Int) {
            let range = offset..<offset + bytes.count
            precondition(!used.contains { $0.overlaps(range) }, "RawFileBuilder: parts overlap at \(offset)")
            used.append(range)
            if file.count < range.upperBound { file += [UInt8](repeating: 0, count: range.upperBound - file.count) }
            file.replaceSubrange(range, with: bytes)
        }
        // The JPEGs after the fixed parts: the preview, then PEF's full-size one.
        let previewAt = Self.images
        put(self.preview, at: previewAt)
        let fullSizeAt = file.count
        if let fullSize = self.fullSize { put(fullSize, at: fullSizeAt) }
        put((Self.raw..<Self.raw + Self.rawLength).map { UInt8($0 & 0xFF) }, at: Self.raw)

        let writer = TIFFDirectoryWriter(bigEndian: bigEndian)
        let header: [UInt8] =
            switch self.format {
            case .orf: Array("IIRO".utf8)
            case .pef: Array("MM".utf8) + [0, 0x2A]
            case .arw: Array("II".utf8) + [0x2A, 0]
            }
        put(header + writer.u32(Self.ifd0), at: 0)

        var ifd0: [(UInt16, TIFFDirectoryWriter.Value)] = [
            (0x010F, .ascii(self.make)), (0x0110, .ascii(self.model)), (0x0112, .short([self.orientation])),
            (0x8769, .long([Self.exif])),
        ]
        let compression =
            switch self.format {
            case .orf: 1
            case .pef: 65535
            case .arw: 32767
            }
        let rawImage: [(UInt16, TIFFDirectoryWriter.Value)] = [
            (0x0100, .long([64])), (0x0101, .long([32])), (0x0102, .short([16])),
            (0x0103, .short([compression])), (0x0106, .short([32803])),
            (0x0111, .long([Self.raw])), (0x0117, .long([Self.rawLength])),
        ]
        switch self.format {
        case .orf, .pef:
            ifd0 += rawImage
        case .arw:
            ifd0 += [
                (0x0201, .long([previewAt])), (0x0202, .long([self.preview.count])), (0x014A, .long([Self.subIFD])),
            ]
            put(writer.directory(rawImage, at: Self.subIFD), at: Self.subIFD)
        }
        let next = self.format == .pef ? Self.ifd1 : 0
        put(writer.directory(ifd0, at: Self.ifd0, next: next), at: Self.ifd0)
        if self.format == .pef {
            // IFD1 names no image here; IFD2 holds the full-size JPEG when there is one.
            let thumbnail: [(UInt16, TIFFDirectoryWriter.Value)] = [(0x00FE, .long([1]))]
            put(writer.directory(thumbnail, at: Self.ifd1, next: self.fullSize == nil ? 0 : Self.ifd2), at: Self.ifd1)
            if let fullSize = self.fullSize {
                let jpgFromRaw: [(UInt16, TIFFDirectoryWriter.Value)] = [
                    (0x0201, .long([fullSizeAt])), (0x0202, .long([fullSize.count])),
                ]
                put(writer.directory(jpgFromRaw, at: Self.ifd2), at: Self.ifd2)
            }
        }

        let note = self.makerNote(previewAt: previewAt, writer: writer)
        var exif: [(UInt16, TIFFDirectoryWriter.Value)] = [(0x9003, .ascii(self.dateTimeOriginal))]
        if !note.isEmpty { exif.append((0x927C, .undefined([]))) }
        put(writer.directory(exif, at: Self.exif, elsewhere: [0x927C: (Self.note, note.count)]), at: Self.exif)
        put(note, at: Self.note)
        return file
    }

    /// The maker note that keeps the preview: Olympus's, whose offsets count from the note's
    /// start, or Pentax's, whose count from the TIFF header.
    func makerNote(previewAt: Int, writer: TIFFDirectoryWriter) -> [UInt8] {
        switch self.format {
        case .orf:
            Self.olympusNote(
                header: Array("OLYMPUS\0II".utf8) + [3, 0], writer: writer, previewStart: previewAt - Self.note,
                length: self.preview.count)
        case .pef:
            Self.pentaxNote(
                header: Array("AOC\0MM".utf8), writer: writer, directoryAt: Self.note + 6, previewStart: previewAt,
                length: self.preview.count)
        case .arw:
            []
        }
    }

    /// An Olympus maker note as ORF files carry it: `header` (ending in its byte order and a
    /// version), its directory right after, and the CameraSettings directory (0x2020, an IFD) at
    /// 0x100 in the note, with the preview's start (counted from the note's start) and length.
    public static func olympusNote(
        header: [UInt8], writer: TIFFDirectoryWriter, previewStart: Int, length: Int
    ) -> [UInt8] {
        let settings = 0x100
        let main = writer.directory(
            [(0x0000, .undefined(Array("0100".utf8))), (0x2020, .ifd(settings))], at: header.count)
        let note = header + main
        return note + [UInt8](repeating: 0, count: settings - note.count)
            + Self.olympusCameraSettings(writer, at: settings, previewStart: previewStart, length: length)
    }

    /// Olympus's CameraSettings directory at `offset` in its note: PreviewImageValid, and the
    /// preview's start (counted from the note's start) and length.
    public static func olympusCameraSettings(
        _ writer: TIFFDirectoryWriter, at offset: Int, previewStart: Int, length: Int
    ) -> [UInt8] {
        writer.directory(
            [
                (0x0000, .undefined(Array("0100".utf8))), (0x0100, .long([1])), (0x0101, .long([previewStart])),
                (0x0102, .long([length])),
            ],
            at: offset)
    }

    /// A Pentax maker note: `header`, then its directory at `directoryAt` (counted as its offsets
    /// are: from the TIFF header after `AOC\0`, from the note after `PENTAX \0`), holding a version
    /// and the preview's length (0x0003) and start (0x0004).
    public static func pentaxNote(
        header: [UInt8], writer: TIFFDirectoryWriter, directoryAt: Int, previewStart: Int, length: Int
    ) -> [UInt8] {
        header
            + writer.directory(
                [(0x0000, .byte([3, 0, 0, 0])), (0x0003, .long([length])), (0x0004, .long([previewStart]))],
                at: directoryAt)
    }
}
