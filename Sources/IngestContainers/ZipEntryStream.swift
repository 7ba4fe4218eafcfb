import CZlib

/// An entry of a zip file read as a stream: stored bytes as they are, deflated ones through
/// zlib's inflate, never more than a buffer at a time.
///
/// What it gives is bounded by what the central directory says: never past the entry's
/// compressed bytes, never more than its size (a zip bomb ends at its declared size, refused),
/// and at the end the size and the CRC-32 must be what the directory says, or the entry is
/// damaged. Read from one thread at a time.
public final class ZipEntryStream {
    /// Reads into the buffer from the file's offset; fewer bytes only at the end of the file.
    public typealias Reader = (_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int

    static let inputSize = 256 << 10

    public let entry: ZipEntry
    private let read: Reader
    /// The next compressed byte to read, and how many remain.
    private var offset: UInt64
    private var remaining: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt = 0
    private var finished = false
    /// zlib keeps a pointer back to its stream: the stream must not move, so it lives on the heap.
    private var inflater: UnsafeMutablePointer<z_stream>?
    private var input: UnsafeMutableRawBufferPointer?

    /// Opens `entry` of the zip file of `fileSize` bytes: checks its local header and where its
    /// data lies.
    public init(entry: ZipEntry, fileSize: UInt64, read: @escaping Reader) throws(ZipError) {
        self.entry = entry
        self.read = read
        let start = try Self.dataStart(of: entry, fileSize: fileSize, read: read)
        self.offset = start
        self.remaining = entry.compressedSize
        if entry.method == ZipEntry.deflated {
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // Raw deflate: a zip entry has no zlib header.
            guard inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deallocate()
                throw ZipError("zlib could not start")
            }
            self.inflater = stream
            self.input = .allocate(byteCount: Self.inputSize, alignment: 16)
        }
    }

    /// Where `entry`'s data starts, after checking that it can be read: not encrypted, stored or
    /// deflated, its local header whole and its data inside the file.
    static func dataStart(of entry: ZipEntry, fileSize: UInt64, read: Reader) throws(ZipError) -> UInt64 {
        guard !entry.isEncrypted else { throw ZipError("it is encrypted") }
        guard entry.method == ZipEntry.stored || entry.method == ZipEntry.deflated else {
            throw ZipError("compression method \(entry.method): only stored and deflated entries are read")
        }
        if entry.method == ZipEntry.stored && entry.compressedSize != entry.size {
            throw ZipError("a stored entry whose sizes differ: damaged")
        }
        var header = [UInt8](repeating: 0, count: 30)
        let got = try header.withUnsafeMutableBytes { buffer in
            Result { () throws(ZipError) -> Int in
                guard entry.localHeaderOffset <= fileSize else { return 0 }
                return try read(entry.localHeaderOffset, buffer)
            }
        }.get()
        let (signature, names) = header.withUnsafeBytes { bytes in
            let header = ByteReader(bytes)
            return (header.u32le(0), UInt64(header.u16le(26)) + UInt64(header.u16le(28)))
        }
        guard got == 30, signature == 0x0403_4b50 else { throw ZipError("its local header is damaged") }
        let start = entry.localHeaderOffset + 30 + names
        guard start <= fileSize, entry.compressedSize <= fileSize - start else {
            throw ZipError("its data runs past the end of the file: cut short")
        }
        return start
    }

    deinit {
        if let inflater {
            inflateEnd(inflater)
            inflater.deallocate()
        }
        self.input?.deallocate()
    }

    /// Fills up to `buffer.count` bytes of the entry's content; 0 once it has all been read and
    /// checked.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        guard !self.finished, buffer.count > 0 else { return 0 }
        let got = self.inflater == nil ? try self.readStored(into: buffer) : try self.inflate(into: buffer)
        if got > 0 {
            guard UInt64(got) <= self.entry.size - self.produced else {
                throw ZipError("it decompresses to more than its declared \(self.entry.size) bytes: refused")
            }
            self.produced += UInt64(got)
            self.crc = crc32(self.crc, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(got))
            return got
        }
        guard self.produced == self.entry.size else {
            throw ZipError("it gave \(self.produced) of its \(self.entry.size) bytes: damaged or cut short")
        }
        guard UInt32(truncatingIfNeeded: self.crc) == self.entry.crc32 else {
            throw ZipError("its CRC-32 does not match its content: damaged")
        }
        self.finished = true
        return 0
    }

    /// Reads until `buffer` is full or the entry ends (checked, as ``read(into:)`` checks it);
    /// returns how many bytes it holds.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        let wanted = Int(min(UInt64(buffer.count), self.remaining))
        guard wanted > 0 else { return 0 }
        let got = try self.read(self.offset, UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
        guard got > 0 else { throw ZipError("its data runs past the end of the file: cut short") }
        self.offset += UInt64(got)
        self.remaining -= UInt64(got)
        return got
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        guard let stream = self.inflater, let input = self.input else { return 0 }
        // Never more room than the entry may still fill, plus one byte to catch a bomb.
        let room = Int(min(UInt64(buffer.count), self.entry.size - self.produced + 1))
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(room)
        while stream.pointee.avail_out == UInt32(room) {
            if stream.pointee.avail_in == 0 && self.remaining > 0 {
                let wanted = Int(min(UInt64(input.count), self.remaining))
                let got = try self.read(self.offset, UnsafeMutableRawBufferPointer(rebasing: input[0..<wanted]))
                guard got > 0 else { throw ZipError("its data runs past the end of the file: cut short") }
                self.offset += UInt64(got)
                self.remaining -= UInt64(got)
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.pointee.avail_in = UInt32(got)
            }
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { break }
            guard status == Z_OK || (status == Z_BUF_ERROR && stream.pointee.avail_in == 0 && self.remaining > 0)
            else {
                if status == Z_BUF_ERROR {
                    throw ZipError("its compressed data ends before its content does: damaged or cut short")
                }
                throw ZipError("its compressed data is damaged (zlib: \(status))")
            }
        }
        return room - Int(stream.pointee.avail_out)
    }
}
