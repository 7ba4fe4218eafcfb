import Foundation
import IngestCore
import IngestImaging

/// Stage 2: reads the capture-time fields (a photo's EXIF, a video's `moov` box) and resolves
/// them into a UTC instant with its source.
public struct CaptureTimeStage: Stage {
    public var resolver: CaptureTimeResolver

    public init(resolver: CaptureTimeResolver) {
        self.resolver = resolver
    }

    public struct Output: Sendable {
        public var capture: CaptureTime
        public var exifSeconds: Double
    }

    public func process(_ file: LoadedFile, context: StageContext) async throws(IngestError) -> Output {
        // Parsing EXIF takes microseconds and touches only the header bytes: not worth a hop to a pool.
        let clock = ContinuousClock()
        let started = clock.now
        let modified = Date(timeIntervalSince1970: Double(file.file.stamp.modifiedNanoseconds) / 1e9)
        let capture: CaptureTime
        if file.kind.isVideo {
            let fields = file.movie.withUnsafeBytes { QuickTimeReader.fields(moov: $0) }
            capture = self.resolver.resolve(fields, fileModified: modified)
        } else {
            let fields = file.bytes.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: file.kind) }
            capture = self.resolver.resolve(fields, fileModified: modified)
        }
        return Output(capture: capture, exifSeconds: (clock.now - started).seconds)
    }
}
