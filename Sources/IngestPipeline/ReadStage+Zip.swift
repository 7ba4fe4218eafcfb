import Foundation
import IngestContainers
import IngestCore
import IngestHashing

/// Reading a zip file's entry: decompressed as it is read, hashed as the bytes arrive, checked
/// against the CRC-32 and the size the zip's directory gives.
extension ReadStage {
    static func read(_ file: DiscoveredFile, member: ZipMember, maxBytes: Int) throws(IngestError) -> Output {
        let clock = ContinuousClock()
        let started = clock.now
        let size = member.entry.size
        return try member.withStream { stream throws(IngestError) -> Output in
            var head = [UInt8](repeating: 0, count: MediaSniffer.headerLength)
            let headCount = try Self.fill(&head, from: stream, path: file.path)
            let kind: MediaKind
            switch MediaSniffer.sniff(head.prefix(headCount)) {
            case .unsupported(let reason): return .unsupported(stamp: file.stamp, reason: reason)
            case .supported(let sniffed): kind = sniffed
            }
            if kind.isVideo {
                throw IngestError(
                    .unreadable, "a video inside a zip file is not read in place yet: unpack the zip for its videos",
                    path: file.path)
            }
            guard size <= UInt64(maxBytes) else {
                throw IngestError(
                    .tooLarge, "\(size) bytes is over the limit of \(maxBytes) bytes held in memory", path: file.path)
            }
            var hasher = ContentHasher()
            var hashing = Duration.zero
            var failure: IngestError?
            let bytes = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, initialized in
                let base = buffer.baseAddress!
                _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<headCount]).initialize(from: head[..<headCount])
                initialized = headCount
                var hashed = 0
                repeat {
                    let hashStarted = clock.now
                    hasher.update(UnsafeRawBufferPointer(start: base + hashed, count: initialized - hashed))
                    hashed = initialized
                    hashing += clock.now - hashStarted
                    // The stream never gives more than the entry's size, and says at the end whether
                    // the bytes are the ones the directory describes.
                    let room = UnsafeMutableRawBufferPointer(
                        start: base + initialized, count: max(Int(size) - initialized, 0))
                    do {
                        let got = room.count > 0 ? try stream.read(into: room) : try Self.finish(stream)
                        guard got > 0 else { break }
                        initialized += got
                    } catch {
                        failure = IngestError(.decodeFailed, "a damaged zip entry: \(error)", path: file.path)
                        break
                    }
                } while true
            }
            if let failure { throw failure }
            return .photo(
                LoadedFile(
                    file: file, kind: bytes.withUnsafeBytes { MediaSniffer.refine(kind, $0) }, bytes: bytes,
                    hash: hasher.finalize(), readSeconds: (clock.now - started - hashing).seconds,
                    hashSeconds: hashing.seconds))
        }
    }

    /// The stream read to its end, where it checks the size and the CRC-32: 0, or a byte past the
    /// declared size (which it refuses).
    static func finish(_ stream: ZipEntryStream) throws(ZipError) -> Int {
        var probe: UInt8 = 0
        return try withUnsafeMutableBytes(of: &probe) { buffer in
            Result { () throws(ZipError) -> Int in try stream.read(into: buffer) }
        }.get()
    }

    /// Fills `buffer` from the stream as far as the entry goes; how many bytes it holds.
    static func fill(_ buffer: inout [UInt8], from stream: ZipEntryStream, path: String) throws(IngestError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(ZipError) -> Int in
                var filled = 0
                while filled < raw.count {
                    let got = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    if got == 0 { break }
                    filled += got
                }
                return filled
            }
        }
        do {
            return try result.get()
        } catch {
            throw IngestError(.decodeFailed, "a damaged zip entry: \(error)", path: path)
        }
    }
}
