import CJPEGShim
import Glibc
import IngestCore

/// Encodes 8-bit pixels as a JPEG on the calling thread, with libjpeg and libvips's own settings
/// for a stripped save: the bytes are those `vips_jpegsave_buffer` writes.
///
/// libvips's save runs through its thread pool, a worker and two write-behind threads woken and
/// waited for each save; for a thumbnail that hand-over cost more CPU than the encoding
/// (docs/performance.md, "The fixed cost of a small photo").
enum JPEGEncoder {
    /// - Parameters:
    ///   - pixels: `height` rows of `width` pixels, `bands` bytes each (1, grey, or 3, RGB),
    ///     `stride` bytes apart.
    /// - Throws: ``IngestError`` with `.encodeFailed` and libjpeg's reason.
    static func encode(
        _ pixels: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, stride: Int, quality: Int
    ) throws(IngestError) -> [UInt8] {
        precondition(bands == 1 || bands == 3, "libjpeg is handed grey or RGB pixels only")
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var reason = [CChar](repeating: 0, count: 256)
        guard
            ingest_jpeg_compress(
                pixels, Int32(width), Int32(height), Int32(bands), stride, Int32(quality), &output, &length, &reason,
                reason.count) == 0, let output
        else {
            throw IngestError(.encodeFailed, "encoding the thumbnail failed: \(String(nulTerminated: reason))")
        }
        defer { free(output) }
        return [UInt8](UnsafeBufferPointer(start: output, count: length))
    }
}
