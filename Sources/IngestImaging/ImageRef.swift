import CVipsShim
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

    /// Computes every pixel now, so that later operations read memory, not the source again.
    func copiedToMemory() throws(IngestError) -> ImageRef {
        guard let copy = vips_image_copy_memory(self.pointer) else {
            throw IngestError(.decodeFailed, "decoding failed: \(VipsError.take())")
        }
        return ImageRef(copy)
    }

    func jpeg(quality: Int) throws(IngestError) -> Thumbnail {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard ingest_vips_jpegsave_buffer(self.pointer, &buffer, &length, Int32(quality)) == 0, let buffer else {
            throw IngestError(.encodeFailed, "encoding the thumbnail failed: \(VipsError.take())")
        }
        defer { g_free(buffer) }
        let jpeg = [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
        return Thumbnail(
            jpeg: jpeg, width: Int(vips_image_get_width(self.pointer)), height: Int(vips_image_get_height(self.pointer))
        )
    }
}
