import IngestCore
import IngestDestinations
import IngestImaging

/// Stage 5: the 500 px and 200 px JPEG thumbnails, made with libvips on a CPU worker; for a video,
/// from a frame near 1 s that FFmpeg decodes (``VideoFrameReader``), on the same worker.
public struct ThumbnailStage: Stage {
    public var thumbnailer: Thumbnailer

    public init(thumbnailer: Thumbnailer) {
        self.thumbnailer = thumbnailer
    }

    public func process(_ file: LoadedFile, context: StageContext) async throws(IngestError) -> Thumbnails {
        let thumbnailer = self.thumbnailer
        if file.kind.isVideo {
            let path = file.file.path
            // A video inside a zip file is decoded from the entry where it lies.
            let content = file.file.member?.content
            return try await context.cpu.run { () throws(IngestError) -> Thumbnails in
                let frame =
                    if let content {
                        try VideoFrameReader.frame(content: content, maxPixels: thumbnailer.maxPixels)
                    } else {
                        try VideoFrameReader.frame(path: path, maxPixels: thumbnailer.maxPixels)
                    }
                return try thumbnailer.thumbnails(of: frame)
            }
        }
        let bytes = file.bytes
        let kind = file.kind
        return try await context.cpu.run { () throws(IngestError) -> Thumbnails in
            // withUnsafeBytes only rethrows untyped errors; carry the typed one out in a Result.
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(IngestError) -> Thumbnails in try thumbnailer.thumbnails(of: buffer, kind: kind) }
            }
            return try result.get()
        }
    }
}
