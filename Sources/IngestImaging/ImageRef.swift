import CVipsShim
import Glibc
import IngestCore

/// One libvips image reference, released when this goes away.
final class ImageRef {
    let pointer: UnsafeMutablePointer<CVipsShim.VipsImage>

    private init(_ pointer: UnsafeMutablePointer<CVipsShim.VipsImage>) { self.pointer = pointer }

    deinit { g_object_unref(self.pointer) }

    /// Runs a libvips call that returns an image through an out-parameter.
    static func make(
        _ doing: String, _ call: (inout UnsafeMutablePointer<CVipsShim.VipsImage>?) -> Int32
    ) throws(IngestError) -> ImageRef {
        var out: UnsafeMutablePointer<CVipsShim.VipsImage>?
        let status = call(&out)
        guard status == 0, let out else {
            if let out { g_object_unref(out) }
            throw IngestError(.decodeFailed, "\(doing) failed: \(VipsError.take())")
        }
        return ImageRef(out)
    }

    /// Whether its longest edge is at most `edge`: a thumbnail of that size (never enlarged) is
    /// the image itself.
    func fits(within edge: Int) -> Bool {
        max(vips_image_get_width(self.pointer), vips_image_get_height(self.pointer)) <= Int32(edge)
    }

    /// How many rows a step of ``copiedToMemory()`` asks for: the memory of a step's buffers stays
    /// small whatever the image, and a sequential loader sees its rows asked for in order.
    static let rowsAStep: Int32 = 64

    /// Computes every pixel now, on this thread, so that later operations read memory, not the
    /// source again.
    ///
    /// libvips's own copy (`vips_image_copy_memory`) hands the work to its thread pool and waits
    /// for it; for a thumbnail that hand-over costs more than the pixels. The rows are asked for
    /// in steps, top to bottom, as libvips's sinks ask: the same pixels.
    func copiedToMemory() throws(IngestError) -> ImageRef {
        let copy = try ImageRef.make("decoding") { ingest_vips_memory_like(self.pointer, &$0) }
        guard let region = vips_region_new(self.pointer) else {
            throw IngestError(.decodeFailed, "decoding failed: \(VipsError.take())")
        }
        defer { g_object_unref(region) }
        let width = vips_image_get_width(self.pointer)
        let height = vips_image_get_height(self.pointer)
        let lineSize = ingest_vips_line_size(self.pointer)
        var top: Int32 = 0
        while top < height {
            var rows = VipsRect(left: 0, top: top, width: width, height: min(Self.rowsAStep, height - top))
            guard vips_region_prepare(region, &rows) == 0 else {
                throw IngestError(.decodeFailed, "decoding failed: \(VipsError.take())")
            }
            for y in top..<top + rows.height {
                memcpy(ingest_vips_image_line(copy.pointer, y), ingest_vips_region_line(region, y), lineSize)
            }
            top += rows.height
        }
        return copy
    }

    /// The image as a JPEG at `quality`, with no metadata. A memory image of grey or RGB bytes
    /// (every thumbnail) is encoded on this thread (``JPEGEncoder``); anything else by libvips,
    /// which converts it for saving first.
    func jpeg(quality: Int) throws(IngestError) -> Thumbnail {
        let width = Int(vips_image_get_width(self.pointer))
        let height = Int(vips_image_get_height(self.pointer))
        let bands = Int(vips_image_get_bands(self.pointer))
        var pixels: UnsafePointer<UInt8>?
        let jpeg: [UInt8]
        if bands == 1 || bands == 3, ingest_vips_memory_pixels(self.pointer, &pixels) == 0, let pixels {
            jpeg = try JPEGEncoder.encode(
                pixels, width: width, height: height, bands: bands, stride: ingest_vips_line_size(self.pointer),
                quality: quality)
        } else {
            jpeg = try self.savedByLibvips(quality: quality)
        }
        return Thumbnail(jpeg: jpeg, width: width, height: height)
    }

    /// The image as libvips's jpegsave writes it, `quality` and no metadata.
    func savedByLibvips(quality: Int) throws(IngestError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard ingest_vips_jpegsave_buffer(self.pointer, &buffer, &length, Int32(quality)) == 0, let buffer else {
            throw IngestError(.encodeFailed, "encoding the thumbnail failed: \(VipsError.take())")
        }
        defer { g_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
