import IngestCore

/// A camera maker's note (the EXIF IFD's MakerNote, tag 0x927C): a directory of the maker's own
/// tags behind a header of the maker's own, its offsets counted from the TIFF header or from the
/// note's start, as the maker chose. Read for Apple's (a Live Photo's identifier), for Olympus's
/// and Pentax's, which keep the previews of ORF and PEF files, and for the body's serial number
/// (Canon, Nikon, Fujifilm, Olympus, Panasonic, Pentax, Sony).
public struct MakerNote {
    public enum Maker: Sendable, Equatable {
        case apple, canon, fujifilm, nikon, olympus, panasonic, pentax, sony
    }

    public let maker: Maker
    /// The note's directories, walked over the bytes of the structure that holds the note.
    public let structure: TIFFStructure

    /// The maker note in `tiff`'s EXIF IFD; nil when there is none, or it is of another maker.
    public init?(in tiff: TIFFStructure) {
        guard let entry = tiff.entry(0x927C, in: [.exif]), entry.type == 7 || entry.type == 1 else { return nil }
        self.init(
            at: entry.valueOffset, count: entry.count, in: tiff.reader, bigEndian: tiff.bigEndian, origin: tiff.origin,
            make: tiff.make)
    }

    /// The note of `count` bytes at `start` in `reader`, inside a TIFF structure of byte order
    /// `bigEndian` whose offsets count from `origin`. The headers, after exiftool's MakerNotes table:
    ///
    /// | header | byte order | directory at | offsets from |
    /// |---|---|---|---|
    /// | `Apple iOS\0`, version | `MM` at 12 | 14 | the note |
    /// | `OLYMPUS\0` | at 8 | 12 | the note |
    /// | `OM SYSTEM\0`, 2 bytes | at 12 | 16 | the note |
    /// | `OLYMP\0` or `EPSON\0`, version | the file's | 8 | the TIFF header |
    /// | `AOC\0` | at 4, else as its entry count reads | 6 | the TIFF header |
    /// | `PENTAX \0` | at 8 | 10 | the note |
    /// | `RICOH\0` (a Ricoh GR III's, Pentax's tags) | at 6 | 8 | the note |
    /// | `Nikon\0`, 2 (type 3) | at 10 | 10 + the offset at 14 | byte 10 of the note |
    /// | `Nikon\0`, 1 (type 1) | the file's | 8 | the TIFF header |
    /// | `FUJIFILM` | little-endian | the offset at 8 | the note |
    /// | `Panasonic\0\0\0` | the file's | 12 | the TIFF header |
    /// | `SONY DSC`, `SONY CAM`, `SONY MOBILE`, `\0\0SONY PIC\0`, `VHAB` | as its entry count reads | 12 | the TIFF header |
    /// | none, `make` SONY (ARW, SR2) | as its entry count reads | 0 | the TIFF header |
    /// | none, `make` Canon | the file's | 0 | the TIFF header |
    ///
    /// The note's directories and values may lie past its `count` bytes, anywhere in `reader`.
    public init?(at start: Int, count: Int, in reader: ByteReader, bigEndian: Bool, origin: Int, make: String? = nil) {
        guard start >= 0, count >= 8, (0...reader.count).contains(origin),
            let header = reader.slice(start, min(count, 16))
        else { return nil }
        func begins(_ text: String) -> Bool { header.starts(with: Array(text.utf8)) }
        /// The file's byte order, unless the entry count at `offset` then reads as a multiple of
        /// 256, which no real count is: exiftool's guess for notes that name no order.
        func orderByCount(at offset: Int) -> Bool {
            let entries = reader.u16be(start + offset)
            return (bigEndian ? entries & 0xFF : entries >> 8) == 0 ? !bigEndian : bigEndian
        }
        /// The byte order named at `offset` in the note, if it names one.
        func order(at offset: Int) -> Bool? {
            switch (reader.u8(start + offset), reader.u8(start + offset + 1)) {
            case (0x49, 0x49): false
            case (0x4D, 0x4D): true
            default: nil
            }
        }
        // Where the first directory lies (from the note's start) and where offsets count from.
        let layout: (maker: Maker, bigEndian: Bool?, first: Int, origin: Int)
        if begins("Apple iOS\0") {
            // Apple writes its notes big-endian only: anything else is not one of them.
            layout = (.apple, order(at: 12) == true ? true : nil, 14, start)
        } else if begins("OLYMPUS\0") {
            layout = (.olympus, order(at: 8), 12, start)
        } else if begins("OM SYSTEM\0") {
            layout = (.olympus, order(at: 12), 16, start)
        } else if begins("OLYMP\0") || begins("EPSON\0") {
            layout = (.olympus, bigEndian, 8, origin)
        } else if begins("AOC\0") {
            // Older Pentax notes leave bytes 4-5 blank: like exiftool, take the file's order unless
            // the entry count then reads as a multiple of 256, which no real count is.
            layout = (.pentax, order(at: 4) ?? orderByCount(at: 6), 6, origin)
        } else if begins("PENTAX \0") {
            layout = (.pentax, order(at: 8), 10, start)
        } else if begins("RICOH\0"), let noteOrder = order(at: 6) {
            // Ricoh's cameras since the GR III write Pentax's note under their own name; Ricoh's
            // older notes ("Ricoh", "RICOH" and a TIFF header) are of another table.
            layout = (.pentax, noteOrder, 8, start)
        } else if begins("Nikon\0\u{02}") {
            // A TIFF header of the note's own at byte 10: its offsets count from there.
            let noteOrder = order(at: 10)
            let first = noteOrder.map { $0 ? reader.u32be(start + 14) : reader.u32le(start + 14) }
            layout = (.nikon, noteOrder, 10 + Int(first ?? 0), start + 10)
        } else if begins("Nikon\0\u{01}") {
            layout = (.nikon, bigEndian, 8, origin)
        } else if begins("FUJIFILM") {
            layout = (.fujifilm, false, Int(reader.u32le(start + 8)), start)
        } else if begins("Panasonic\0") {
            layout = (.panasonic, bigEndian, 12, origin)
        } else if ["SONY DSC", "SONY CAM", "SONY MOBILE", "\0\0SONY PIC\0", "VHAB     \0"].contains(where: begins) {
            layout = (.sony, orderByCount(at: 12), 12, origin)
        } else if make?.hasPrefix("SONY") == true, !["SONY PI", "PREMI\0", "\u{01}\0"].contains(where: begins) {
            // ARW and SR2 files' notes have no header; "SONY PI" and "PREMI" notes are Olympus's.
            layout = (.sony, orderByCount(at: 0), 0, origin)
        } else if make?.hasPrefix("CANON") == true {
            layout = (.canon, bigEndian, 0, origin)
        } else {
            return nil
        }
        guard let noteOrder = layout.bigEndian, layout.first >= 0, layout.first + 2 <= count else { return nil }
        self.maker = layout.maker
        self.structure = TIFFStructure(
            makerNoteIn: reader, bigEndian: noteOrder, origin: layout.origin, first: start + layout.first,
            noteDirectories: layout.maker == .olympus ? [0x2010, 0x2020] : [])
    }

    /// Where the note's entries say previews lie, as ranges of the bytes (whether each is a JPEG
    /// is for the caller to judge): Olympus's CameraSettings PreviewImageStart and Length (0x101,
    /// 0x102; ORF files keep their preview only there) and the older notes' 0x1036/0x1037 and
    /// 0x0088/0x0089; Pentax's 0x0004 and its length 0x0003.
    public var previewRanges: [Range<Int>] {
        let pairs: [(kind: TIFFStructure.DirectoryKind, start: UInt16, length: UInt16)] =
            switch self.maker {
            case .olympus:
                [(.makerNoteSub(0x2020), 0x0101, 0x0102), (.makerNote, 0x1036, 0x1037), (.makerNote, 0x0088, 0x0089)]
            case .pentax: [(.makerNote, 0x0004, 0x0003)]
            case .apple, .canon, .fujifilm, .nikon, .panasonic, .sony: []
            }
        let note = self.structure
        return pairs.flatMap { pair in
            note.directories.filter { $0.kind == pair.kind }.compactMap { directory in
                guard let start = directory.entry(pair.start), let length = directory.entry(pair.length) else {
                    return nil
                }
                return note.range(offset: start, length: length)
            }
        }
    }
}
