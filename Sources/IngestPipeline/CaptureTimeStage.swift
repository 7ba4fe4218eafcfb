import Foundation
import IngestContainers
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
        /// What pairs the file with another (a Live Photo's identifier, the camera), read in the same walk.
        public var identity: MediaIdentity
        public var exifSeconds: Double
    }

    public func process(_ file: LoadedFile, context: StageContext) async throws(IngestError) -> Output {
        // Parsing EXIF takes microseconds and touches only the header bytes, and a zone lookup (for
        // a photo with a GPS position) tens of microseconds on the mapped zone file: not worth a
        // hop to a pool.
        let clock = ContinuousClock()
        let started = clock.now
        let modified = Date(timeIntervalSince1970: Double(file.file.stamp.modifiedNanoseconds) / 1e9)
        let capture: CaptureTime
        let identity: MediaIdentity
        if file.kind.isVideo {
            let fields = file.movie.withUnsafeBytes { QuickTimeReader.fields(moov: $0) }
            capture = self.resolver.resolve(fields, fileModified: modified)
            identity = MediaIdentity(contentIdentifier: fields.contentIdentifier)
        } else {
            // One walk of the EXIF for both; the structures point into the bytes, so they stay in here.
            let (fields, found) = file.bytes.withUnsafeBytes { raw in
                let structures = ExifLocator.exif(in: raw, kind: file.kind)
                var identity = MediaIdentity(structures)
                identity.motionPhoto = MotionPhoto.property(in: raw, kind: file.kind)
                return (ExifTimeFields(structures), identity)
            }
            capture = self.resolver.resolve(fields, fileModified: modified)
            identity = found
        }
        return Output(capture: capture, identity: identity, exifSeconds: (clock.now - started).seconds)
    }
}
