/// Reads a zip file's central directory: the list of its entries, without reading any of them.
///
/// ZIP64 is read (Google Takeout's parts pass 4 GB). The bytes are untrusted: every offset and
/// size is checked against the file before it is used, the directory is read in one bounded
/// piece, and a directory that claims more entries than its bytes can hold is refused.
/// Multi-disk archives are refused.
public enum ZipDirectory {
    /// A directory larger than this is not a photo export's (a million entries with long names
    /// take 150 MiB): refused rather than held.
    public static let sizeLimit: UInt64 = 256 << 20
    /// The end record and the longest comment it may be followed by.
    static let tailLength = 22 + 0xFFFF

    /// Reads exactly `count` bytes at `offset`, or throws.
    public typealias Reader = (_ offset: UInt64, _ count: Int) throws(ZipError) -> [UInt8]

    /// The entries of the zip file of `size` bytes that `read` reads, in the directory's order.
    /// Folders' entries are left out.
    public static func entries(size: UInt64, read: Reader) throws(ZipError) -> [ZipEntry] {
        let end = try Self.end(size: size, read: read)
        guard end.directorySize <= Self.sizeLimit else {
            throw ZipError("its central directory is \(end.directorySize >> 20) MiB, more than any photo export's")
        }
        guard end.directoryOffset <= end.recordOffset, end.directorySize <= end.recordOffset - end.directoryOffset
        else {
            throw ZipError("its central directory lies outside the file: damaged or cut short")
        }
        // The smallest entry takes 46 bytes: a larger count is a lie, not a reason to allocate.
        guard end.count <= end.directorySize / 46 else {
            throw ZipError("its central directory claims more entries than it can hold")
        }
        let directory = try read(end.directoryOffset, Int(end.directorySize))
        return try Self.reading(directory) { reader throws(ZipError) in
            try Self.parse(reader, count: Int(end.count), dataEnd: end.directoryOffset)
        }
    }

    /// `body` over a ``ByteReader`` of `bytes`, its typed error kept (`withUnsafeBytes` only
    /// rethrows untyped ones).
    static func reading<T>(_ bytes: [UInt8], _ body: (ByteReader) throws(ZipError) -> T) throws(ZipError) -> T {
        try bytes.withUnsafeBytes { raw in Result { () throws(ZipError) -> T in try body(ByteReader(raw)) } }.get()
    }

    struct End {
        var directoryOffset: UInt64
        var directorySize: UInt64
        var count: UInt64
        /// Where the end record (ZIP64's when there is one) starts: the directory ends before it.
        var recordOffset: UInt64
    }

    /// The end of central directory record, and the ZIP64 one it points to.
    static func end(size: UInt64, read: Reader) throws(ZipError) -> End {
        guard size >= 22 else { throw ZipError("too short to be a zip file") }
        let tailStart = size - min(size, UInt64(Self.tailLength))
        let tail = try read(tailStart, Int(size - tailStart))
        return try Self.reading(tail) { reader throws(ZipError) -> End in
            // Backwards, so that a comment holding the signature does not fool it; byte by byte on
            // the raw buffer (every file of a walk named .zip is searched so).
            let raw = reader.bytes
            var at = reader.count - 22
            while at >= 0 {
                if raw[at] == 0x50, raw[at + 1] == 0x4b, raw[at + 2] == 0x05, raw[at + 3] == 0x06,
                    at + 22 + Int(reader.u16le(at + 20)) <= reader.count
                {
                    break
                }
                at -= 1
            }
            guard at >= 0 else { throw ZipError("no end of central directory: not a zip file, or cut short") }
            let record = tailStart + UInt64(at)
            if reader.u16le(at + 4) != 0 || reader.u16le(at + 6) != 0 {
                throw ZipError("a zip split over several files (\"disks\") is not read")
            }
            var end = End(
                directoryOffset: UInt64(reader.u32le(at + 16)), directorySize: UInt64(reader.u32le(at + 12)),
                count: UInt64(reader.u16le(at + 10)), recordOffset: record)
            // The ZIP64 locator sits just before the record; it points to the ZIP64 record.
            guard at >= 20, reader.u32le(at - 20) == 0x0706_4b50 else { return end }
            let zip64 = reader.u64le(at - 20 + 8)
            // Its 56 bytes end before the locator's 20.
            guard record >= 76, zip64 <= record - 76 else {
                throw ZipError("its ZIP64 end record lies outside the file: damaged")
            }
            let fields = try read(zip64, 56)
            try Self.reading(fields) { record throws(ZipError) in
                guard record.u32le(0) == 0x0606_4b50 else { throw ZipError("its ZIP64 end record is damaged") }
                end = End(
                    directoryOffset: record.u64le(48), directorySize: record.u64le(40), count: record.u64le(32),
                    recordOffset: zip64)
            }
            return end
        }
    }

    /// The `count` entries of the central directory `reader`, whose data all lies before `dataEnd`.
    static func parse(_ reader: ByteReader, count: Int, dataEnd: UInt64) throws(ZipError) -> [ZipEntry] {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= reader.count, reader.u32le(at) == 0x0201_4b50 else {
                throw ZipError("its central directory is damaged (entry \(entries.count + 1) of \(count))")
            }
            let flags = reader.u16le(at + 8)
            let nameLength = Int(reader.u16le(at + 28))
            let extraLength = Int(reader.u16le(at + 30))
            let commentLength = Int(reader.u16le(at + 32))
            guard let name = reader.slice(at + 46, nameLength),
                let extra = reader.slice(at + 46 + nameLength, extraLength),
                reader.slice(at + 46 + nameLength + extraLength, commentLength) != nil
            else {
                throw ZipError("its central directory is damaged (entry \(entries.count + 1) of \(count))")
            }
            var entry = ZipEntry(
                name: Self.name(name), method: reader.u16le(at + 10), isEncrypted: flags & 1 != 0,
                crc32: reader.u32le(at + 16), compressedSize: UInt64(reader.u32le(at + 20)),
                size: UInt64(reader.u32le(at + 24)), localHeaderOffset: UInt64(reader.u32le(at + 42)),
                modifiedSeconds: Self.dosSeconds(date: reader.u16le(at + 14), time: reader.u16le(at + 12)))
            Self.readExtra(ByteReader(extra), into: &entry)
            guard entry.localHeaderOffset < dataEnd, entry.compressedSize <= dataEnd - entry.localHeaderOffset else {
                throw ZipError("entry \"\(entry.name)\" lies outside the file: damaged")
            }
            if !entry.isFolder { entries.append(entry) }
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The ZIP64 sizes and offset (each present only where the fixed field is all ones), and the
    /// extended timestamp's modification time.
    static func readExtra(_ extra: ByteReader, into entry: inout ZipEntry) {
        var at = 0
        while at + 4 <= extra.count {
            let id = extra.u16le(at)
            let length = Int(extra.u16le(at + 2))
            let body = at + 4
            guard body + length <= extra.count else { return }
            if id == 0x0001 {
                var field = body
                func next(_ value: inout UInt64) {
                    guard field + 8 <= body + length else { return }
                    value = extra.u64le(field)
                    field += 8
                }
                if entry.size == 0xFFFF_FFFF { next(&entry.size) }
                if entry.compressedSize == 0xFFFF_FFFF { next(&entry.compressedSize) }
                if entry.localHeaderOffset == 0xFFFF_FFFF { next(&entry.localHeaderOffset) }
            } else if id == 0x5455, length >= 5, extra.u8(body) & 1 != 0 {
                entry.modifiedSeconds = Int64(Int32(bitPattern: extra.u32le(body + 1)))
            }
            at = body + length
        }
    }

    /// A name's bytes as text: UTF-8 when they are (what every current writer uses, flagged or
    /// not), else Latin-1, byte for byte (old Windows zips' code page 437 differs only in
    /// accented letters and symbols).
    static func name(_ bytes: UnsafeRawBufferPointer) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// An MS-DOS date and time (two seconds' precision, no zone) in seconds since the epoch, read as UTC.
    static func dosSeconds(date: UInt16, time: UInt16) -> Int64 {
        let year = 1980 + Int(date >> 9)
        let month = max(1, min(12, Int(date >> 5 & 0xF)))
        let day = max(1, min(31, Int(date & 0x1F)))
        let hour = min(23, Int(time >> 11))
        let minute = min(59, Int(time >> 5 & 0x3F))
        let second = min(59, Int(time & 0x1F) * 2)
        // Days from the civil date (Howard Hinnant's algorithm): no calendar object per entry.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }
}
