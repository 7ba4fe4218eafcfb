import Foundation
import IngestContainers
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestHashing

/// Reading a zip file's entry: its first bytes decide the kind, as a file's do; a photo's entry is
/// then read whole (``ZipEntryStream/whole(_:fileSize:read:)``) and hashed, a video's streamed
/// through one buffer, each checked against the CRC-32 and the size the zip's directory gives.
extension ReadStage {
    static func read(_ file: DiscoveredFile, member: ZipMember, maxBytes: Int) throws(IngestError) -> Output {
        let clock = ContinuousClock()
        let started = clock.now
        let entry = member.entry
        return try member.withArchive { read, archiveSize throws(IngestError) -> Output in
            func damaged(_ error: ZipError) -> IngestError {
                IngestError(.decodeFailed, "cannot read the zip entry: \(error)", path: file.path)
            }
            var head = [UInt8](repeating: 0, count: MediaSniffer.headerLength)
            let headCount: Int
            let stream: ZipEntryStream
            do throws(ZipError) {
                // Inflating a header's worth costs microseconds, where the whole entry may be a video.
                stream = try ZipEntryStream(entry: entry, fileSize: archiveSize, read: read)
                headCount = try head.withUnsafeMutableBytes { raw in
                    Result { () throws(ZipError) -> Int in try stream.readFully(into: raw) }
                }.get()
            } catch {
                throw damaged(error)
            }
            let kind: MediaKind
            switch MediaSniffer.sniff(head.prefix(headCount)) {
            case .unsupported(let reason): return .unsupported(stamp: file.stamp, reason: reason)
            case .supported(let sniffed): kind = sniffed
            }
            if kind.isVideo {
                return try Self.stream(
                    file, kind: kind, head: head.prefix(headCount), rest: stream, started: started, damaged: damaged)
            }
            guard entry.size <= UInt64(maxBytes) else {
                throw IngestError(
                    .tooLarge, "\(entry.size) bytes is over the limit of \(maxBytes) bytes held in memory",
                    path: file.path)
            }
            let bytes: [UInt8]
            do throws(ZipError) {
                bytes = try ZipEntryStream.whole(entry, fileSize: archiveSize, read: read)
            } catch {
                throw damaged(error)
            }
            let hashStarted = clock.now
            var hasher = ContentHasher()
            bytes.withUnsafeBytes { hasher.update($0) }
            let hash = hasher.finalize()
            let hashing = clock.now - hashStarted
            return .photo(
                LoadedFile(
                    file: file, kind: bytes.withUnsafeBytes { MediaSniffer.refine(kind, $0) }, bytes: bytes,
                    hash: hash, readSeconds: (clock.now - started - hashing).seconds, hashSeconds: hashing.seconds))
        }
    }

    /// A video inside a zip file: hashed as it inflates through one buffer, its `moov` box kept on
    /// the way, as a file's is; the stream checks its size and CRC-32 at the end.
    static func stream(
        _ file: DiscoveredFile, kind: MediaKind, head: ArraySlice<UInt8>, rest stream: ZipEntryStream,
        started: ContinuousClock.Instant, damaged: (ZipError) -> IngestError
    ) throws(IngestError) -> Output {
        var digest = VideoDigest(size: stream.entry.size, started: started)
        Array(head).withUnsafeBytes { digest.take($0) }
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let got: Int
            do throws(ZipError) {
                got = try buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(ZipError) -> Int in try stream.read(into: raw) }
                }.get()
            } catch {
                throw damaged(error)
            }
            if got == 0 { break }
            buffer.withUnsafeBytes { digest.take(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return .photo(try digest.finish(file, kind: kind))
    }
}
