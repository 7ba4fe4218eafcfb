import CFFmpegShim
import Foundation
import IngestCore

/// FFmpeg's reads and seeks, answered from a ``ContentReader``: a video with no file of its own
/// (an entry of a zip file) is decoded from where it lies, never copied out.
final class ContentInput {
    private let reader: any ContentReader
    private let size: Int64
    private var position: Int64 = 0
    /// The first error the reader threw: FFmpeg only sees that its read failed.
    private(set) var error: IngestError?

    init(reader: any ContentReader, size: Int64) {
        self.reader = reader
        self.size = size
    }

    /// FFmpeg's `read_packet`: up to `count` bytes, or a negative AVERROR (end of content, failure).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        guard self.position < self.size, count > 0 else { return ingest_av_error_eof() }
        do throws(IngestError) {
            let got = try self.reader.read(
                into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: self.position)
            guard got > 0 else { return ingest_av_error_eof() }
            self.position += Int64(got)
            return Int32(got)
        } catch {
            self.error = self.error ?? error
            return -EIO
        }
    }

    /// FFmpeg's `seek`: the new position, the size when asked for it, or -1 for a place outside.
    func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & ingest_av_seek_size() != 0 { return self.size }
        // AVSEEK_FORCE only says the seek may be slow; any seek here is allowed.
        let base: Int64
        switch whence & 0xFFFF {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = self.position
        case SEEK_END: base = self.size
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        self.position = target
        return target
    }
}
