import IngestCore

/// The directories (IFDs) of a TIFF structure, found by walking it from its header: the main
/// chain (IFD0, IFD1, …), SubIFDs, and the EXIF, GPS and Interoperability IFDs they point to.
///
/// The one reader of TIFF-structured metadata in photoingest: the EXIF block of a JPEG, PNG, WebP
/// or HEIF, and whole TIFF-based files (TIFF, DNG, CR2, NEF, ARW, PEF, RW2, ORF), whose
/// directories and values may lie anywhere in the file. Every offset is checked against the
/// bytes; a directory is visited once, and at most ``directoryLimit`` of them, so a hostile file
/// with looping or endless pointers costs a bounded walk.
public struct TIFFStructure {
    public enum DirectoryKind: Sendable, Equatable {
        /// The n-th directory of the main chain: 0 describes the image, 1 usually its thumbnail.
        case main(Int)
        /// A SubIFD: raw files keep their full-size image and previews here.
        case sub
        case exif, gps, interoperability
        /// A maker note's directory (see ``MakerNote``).
        case makerNote
        /// A directory a maker note's entry with this tag points to (Olympus's CameraSettings).
        case makerNoteSub(UInt16)
    }

    /// One entry: a tag, its TIFF type and count, and where its value lies in the bytes.
    public struct Entry: Sendable, Equatable {
        public var tag: UInt16
        public var type: UInt16
        public var count: Int
        /// Offset of the value's first byte in the bytes walked; the value lies wholly inside them.
        public var valueOffset: Int
    }

    public struct Directory: Sendable {
        public var kind: DirectoryKind
        public var entries: [Entry]

        public func entry(_ tag: UInt16) -> Entry? { self.entries.first { $0.tag == tag } }
    }

    public static let directoryLimit = 64
    /// Directory pointers looked at at most in one walk, new or seen before: a hostile file can
    /// hold millions (64 directories of 1,024 SubIFD entries of 64 pointers); a camera, a dozen.
    public static let pointerLimit = 1_024
    /// More entries than any camera writes, in one directory and in all of a walk's together (a
    /// camera writes a few hundred): a directory claiming more is cut there, and the walk ends.
    public static let entryLimit = 1_024

    public let reader: ByteReader
    public let bigEndian: Bool
    /// Where the offsets stored in the structure count from: 0, the TIFF header, except in maker
    /// notes whose offsets count from the note's own start.
    public let origin: Int
    /// The tags of a maker note's entries that point to further directories.
    let noteDirectories: [UInt16]
    public private(set) var directories: [Directory] = []

    /// Walks the structure in `bytes`, whose first byte is the TIFF header (`II` or `MM`). Besides
    /// TIFF's 42, the magic numbers of Panasonic's RW2 (`IIU\0`) and Olympus's ORF (`IIRO`,
    /// `IIRS`, `MMOR`) are taken. `root` names the first directory: CR3 keeps EXIF and GPS as
    /// separate structures whose first directory is the EXIF or the GPS IFD. Nil when the header
    /// is not a TIFF header.
    public init?(_ bytes: UnsafeRawBufferPointer, root: DirectoryKind = .main(0)) {
        let reader = ByteReader(bytes)
        guard reader.count >= 8 else { return nil }
        switch (reader.u8(0), reader.u8(1)) {
        case (0x49, 0x49): self.bigEndian = false
        case (0x4D, 0x4D): self.bigEndian = true
        default: return nil
        }
        self.reader = reader
        self.origin = 0
        self.noteDirectories = []
        guard [0x2A, 0x55, 0x4F52, 0x5352].contains(self.u16(2)) else { return nil }
        self.walk(from: Int(self.u32(4)), root: root)
    }

    /// A maker note's structure: its directory at `first`, in `reader`'s bytes, its offsets counted
    /// from `origin`; entries tagged `noteDirectories` point to further directories.
    init(makerNoteIn reader: ByteReader, bigEndian: Bool, origin: Int, first: Int, noteDirectories: [UInt16]) {
        self.reader = reader
        self.bigEndian = bigEndian
        self.origin = origin
        self.noteDirectories = noteDirectories
        self.walk(from: first, root: .makerNote)
    }

    public func u16(_ offset: Int) -> UInt16 {
        self.bigEndian
            ? self.reader.u16be(offset) : UInt16(self.reader.u8(offset)) | UInt16(self.reader.u8(offset + 1)) << 8
    }

    public func u32(_ offset: Int) -> UInt32 {
        self.bigEndian ? self.reader.u32be(offset) : self.reader.u32le(offset)
    }

    private mutating func walk(from first: Int, root: DirectoryKind) {
        var pending: [(offset: Int, kind: DirectoryKind)] = [(first, root)]
        var queued: Set<Int> = [first]
        var next = 0
        var looked = 0
        var read = 0
        // Each offset is queued once and taken in order; at most `pointerLimit` pointers to EXIF,
        // GPS, Interoperability and SubIFDs are looked at (the main chain's next pointers, one a
        // directory, are bounded by `directoryLimit`) and `entryLimit` entries read: a file full
        // of pointers (to one directory or to many) costs a bounded walk.
        func queue(_ offset: Int, _ kind: DirectoryKind) {
            looked += 1
            guard queued.insert(offset).inserted else { return }
            pending.append((offset, kind))
        }
        while next < pending.count, self.directories.count < Self.directoryLimit, read < Self.entryLimit {
            let (offset, kind) = pending[next]
            next += 1
            guard offset >= 8, offset + 2 <= self.reader.count else { continue }
            let (entries, count, declared, fitting) = self.entries(at: offset, atMost: Self.entryLimit - read)
            read += count
            let directory = Directory(kind: kind, entries: entries)
            self.directories.append(directory)
            // Pointers to further directories, each followed once.
            for entry in entries where looked < Self.pointerLimit {
                switch (entry.tag, kind) {
                case (0x8769, .main), (0x8769, .sub): queue(self.pointer(entry, 0), .exif)
                case (0x8825, .main), (0x8825, .sub): queue(self.pointer(entry, 0), .gps)
                case (0xA005, .exif): queue(self.pointer(entry, 0), .interoperability)
                case (0x014A, .main), (0x014A, .sub):
                    for index in 0..<min(entry.count, Self.directoryLimit) where looked < Self.pointerLimit {
                        queue(self.pointer(entry, index), .sub)
                    }
                case (let tag, .makerNote) where self.noteDirectories.contains(tag):
                    // A pointer (IFD or LONG), or else, as exiftool takes it, a blob that is the directory.
                    let pointed = entry.type == 13 || entry.type == 4
                    queue(pointed ? self.pointer(entry, 0) : entry.valueOffset, .makerNoteSub(tag))
                default: break
                }
            }
            if case .main(let position) = kind, declared <= fitting {
                let following = Int(self.u32(offset + 2 + declared * 12))
                if following != 0 { queue(following, .main(position + 1)) }
            }
        }
    }

    /// The entries of the directory at `offset`: at most `limit` read, those whose values lie
    /// inside the bytes kept. Also how many were read, how many the directory declares, and how
    /// many would fit in the bytes.
    private func entries(
        at offset: Int, atMost limit: Int
    ) -> (entries: [Entry], read: Int, declared: Int, fitting: Int) {
        let declared = Int(self.u16(offset))
        let fitting = (self.reader.count - offset - 2) / 12
        let count = min(declared, fitting, limit)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            if let entry = self.entry(at: offset + 2 + index * 12) { entries.append(entry) }
        }
        return (entries, count, declared, fitting)
    }

    /// The entry at `offset`, or nil when its value would lie outside the bytes.
    private func entry(at offset: Int) -> Entry? {
        let type = self.u16(offset + 2)
        let count = Int(self.u32(offset + 4))
        guard let size = Self.size(of: type) else { return nil }
        let (length, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        let valueOffset = length <= 4 ? offset + 8 : self.origin + Int(self.u32(offset + 8))
        guard valueOffset <= self.reader.count, length <= self.reader.count - valueOffset else { return nil }
        return Entry(tag: self.u16(offset), type: type, count: count, valueOffset: valueOffset)
    }

    /// Bytes per value of a TIFF type; nil for a type TIFF does not define.
    public static func size(of type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// Where the `index`-th value of a pointer entry points, in the bytes walked; 0 (never a
    /// directory) when the entry holds no such value.
    private func pointer(_ entry: Entry, _ index: Int) -> Int {
        guard let value = self.unsigned(entry, index), value != 0 else { return 0 }
        return self.origin + Int(value)
    }

    /// The `index`-th value of a BYTE, SHORT, LONG or IFD entry.
    public func unsigned(_ entry: Entry, _ index: Int = 0) -> UInt32? {
        guard index >= 0, index < entry.count else { return nil }
        switch entry.type {
        case 1: return UInt32(self.reader.u8(entry.valueOffset + index))
        case 3: return UInt32(self.u16(entry.valueOffset + index * 2))
        case 4, 13: return self.u32(entry.valueOffset + index * 4)
        default: return nil
        }
    }

    /// The bytes an offset entry and a length entry point at, the offset counted from ``origin``;
    /// nil when either is 0 (written for none) or the bytes would lie outside the reader.
    public func range(offset: Entry, length: Entry) -> Range<Int>? {
        guard let start = self.unsigned(offset), start > 0, let count = self.unsigned(length), count > 0,
            self.reader.slice(self.origin + Int(start), Int(count)) != nil
        else { return nil }
        return self.origin + Int(start)..<self.origin + Int(start) + Int(count)
    }

    /// An ASCII value (or UNDEFINED, which some cameras use for text), cut at the first NUL.
    public func string(_ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 7,
            let bytes = self.reader.slice(entry.valueOffset, entry.count)
        else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A RATIONAL entry's values.
    public func rationals(_ entry: Entry) -> [ExifRational]? {
        guard entry.type == 5 else { return nil }
        return (0..<min(entry.count, 64)).map { index in
            ExifRational(self.u32(entry.valueOffset + index * 8), self.u32(entry.valueOffset + index * 8 + 4))
        }
    }

    /// The first entry with `tag` in directories of the given kinds, searched in that order.
    public func entry(_ tag: UInt16, in kinds: [DirectoryKind]) -> Entry? {
        for kind in kinds {
            for directory in self.directories where directory.kind == kind {
                if let entry = directory.entry(tag) { return entry }
            }
        }
        return nil
    }
}
