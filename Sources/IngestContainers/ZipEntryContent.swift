import Foundation
import IngestCore

/// A zip file's entry read at any offset, never whole: what a video inside a zip file is decoded,
/// stored and uploaded from.
///
/// A stored entry's bytes are read where they lie. A deflated one is inflated through a
/// ``ZipEntryStream`` from where the last read ended; a read further on inflates and drops what
/// lies between, a read further back inflates again from the start (FFmpeg looks at a video's
/// index at its end, then goes back for a frame: two passes at most).
public final class ZipEntryContent: ContentReader {
    public let entry: ZipEntry
    private let file: OpenFile
    private let fileSize: UInt64
    private let dataStart: UInt64
    private let path: String
    /// A deflated entry's stream, and the offset in its content it has reached.
    private var stream: ZipEntryStream?
    private var position: Int64 = 0
    private var scratch: [UInt8] = []

    /// Opens `entry` of the zip file at `archive` (`path`: the entry's, for errors).
    public init(archive: String, entry: ZipEntry, path: String) throws(IngestError) {
        self.entry = entry
        self.path = path
        do {
            self.file = try OpenFile(archive, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.unreadable, "cannot open its zip file: \(error)", path: path)
        }
        let status: stat
        do {
            status = try self.file.status()
        } catch {
            self.file.close()
            throw IngestError(.unreadable, "cannot stat its zip file: \(error)", path: path)
        }
        self.fileSize = UInt64(status.st_size)
        let file = self.file
        let fileSize = self.fileSize
        do throws(IngestError) {
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw IngestError(.changedWhileReading, "its zip file is no longer a regular file", path: path)
            }
            self.dataStart = try Self.damaged(path) { () throws(ZipError) -> UInt64 in
                try ZipEntryStream.dataStart(of: entry, fileSize: fileSize, read: Self.reader(file))
            }
        } catch {
            file.close()
            throw error
        }
    }

    deinit { self.file.close() }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(IngestError) -> Int {
        let size = Int64(clamping: self.entry.size)
        guard offset >= 0, offset < size, buffer.count > 0 else { return 0 }
        let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), size - offset))])
        let file = self.file
        if self.entry.method == ZipEntry.stored {
            return try Self.damaged(self.path) { () throws(ZipError) -> Int in
                let got = try Self.reader(file)(self.dataStart + UInt64(offset), wanted)
                guard got == wanted.count else { throw ZipError("its data runs past the end of the file: cut short") }
                return got
            }
        }
        return try Self.damaged(self.path) { () throws(ZipError) -> Int in
            if self.stream == nil || offset < self.position {
                self.stream = try ZipEntryStream(entry: self.entry, fileSize: self.fileSize, read: Self.reader(file))
                self.position = 0
            }
            guard let stream = self.stream else { return 0 }
            if self.position < offset && self.scratch.isEmpty { self.scratch = [UInt8](repeating: 0, count: 1 << 16) }
            while self.position < offset {
                let skip = Int(min(Int64(self.scratch.count), offset - self.position))
                let got = try self.scratch.withUnsafeMutableBytes { scratch in
                    Result { () throws(ZipError) -> Int in
                        try stream.readFully(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<skip]))
                    }
                }.get()
                guard got == skip else { throw ZipError("it ends before its declared size: damaged or cut short") }
                self.position += Int64(got)
            }
            let got = try stream.readFully(into: wanted)
            self.position += Int64(got)
            // At the end, one more read: the stream checks the size and the CRC-32 only there.
            if self.position == size {
                var probe: UInt8 = 0
                let more = try withUnsafeMutableBytes(of: &probe) { raw in
                    Result { () throws(ZipError) -> Int in try stream.read(into: raw) }
                }.get()
                guard more == 0 else { throw ZipError("it decompresses to more than its declared \(size) bytes") }
            }
            return got
        }
    }

    /// Reads the zip file from `offset` until the buffer is full or the file ends.
    public static func reader(_ file: OpenFile) -> ZipEntryStream.Reader {
        { offset, buffer throws(ZipError) -> Int in
            guard offset <= UInt64(Int64.max) else { return 0 }
            var filled = 0
            while filled < buffer.count {
                let got: Int
                do {
                    got = try file.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                        at: Int64(offset) + Int64(filled))
                } catch {
                    throw ZipError("cannot read: \(error)")
                }
                if got == 0 { break }
                filled += got
            }
            return filled
        }
    }

    private static func damaged<T>(_ path: String, _ body: () throws(ZipError) -> T) throws(IngestError) -> T {
        do {
            return try body()
        } catch {
            throw IngestError(.decodeFailed, "cannot read the zip entry: \(error)", path: path)
        }
    }
}

extension ContentSource {
    /// The entry `entry` of the zip file at `archive`, opened afresh by each reader.
    public static func zipEntry(archive: String, entry: ZipEntry, path: String) -> ContentSource {
        ContentSource(size: Int64(clamping: entry.size)) { () throws(IngestError) -> any ContentReader in
            try ZipEntryContent(archive: archive, entry: entry, path: path)
        }
    }
}
