import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestDestinations
import IngestImaging

/// Stage 2: reads the capture-time fields (a photo's EXIF, a video's `moov` box) and resolves
/// them into a UTC instant with its source.
public struct CaptureTimeStage: Stage {
    public var resolver: CaptureTimeResolver
    /// The camera clocks to correct, by body, model or folder.
    public var corrections: ClockCorrections

    public init(resolver: CaptureTimeResolver, corrections: ClockCorrections = ClockCorrections()) {
        self.resolver = resolver
        self.corrections = corrections
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
        let path = file.file.path
        let embedded: CaptureEvidence.Embedded
        let identity: MediaIdentity
        if file.kind.isVideo {
            let fields = file.movie.withUnsafeBytes { moov in
                file.movieMetadata.withUnsafeBytes { QuickTimeReader.fields(moov: moov, meta: $0) }
            }
            var found = MediaIdentity(contentIdentifier: fields.contentIdentifier)
            found.body = CameraBody(make: fields.make, model: fields.model, serial: fields.serial)
            (embedded, identity) = (.video(fields), found)
        } else {
            // One walk of the EXIF for both; the structures point into the bytes, so they stay in here.
            let (fields, found) = file.bytes.withUnsafeBytes { raw in
                let structures = ExifLocator.exif(in: raw, kind: file.kind)
                var identity = MediaIdentity(structures)
                identity.motionPhoto = MotionPhoto.property(in: raw, kind: file.kind)
                return (ExifTimeFields(structures), identity)
            }
            (embedded, identity) = (.photo(fields), found)
        }
        let xmp = file.sidecar.map { Self.read($0, name: file.file.sidecar?.name ?? "") } ?? SidecarReading()
        let evidence = CaptureEvidence(
            embedded: embedded, path: path, fileModified: modified,
            clockOffset: { [corrections, body = identity.body] wall in
                corrections.seconds(for: body, path: path, wall: wall)
            }, sidecar: xmp.fields, sidecarProblem: xmp.problem, export: Self.export(of: file))
        return Output(
            capture: self.resolver.resolve(evidence), identity: identity, exifSeconds: (clock.now - started).seconds)
    }
}

extension CaptureTimeStage {
    /// What a file's sidecar gave: its fields, or why it gave none.
    struct SidecarReading {
        var fields: XMPFields?
        var problem: String?

    }

    /// The capture-time values of the sidecar `name` (its bytes as the read stage got them); one
    /// that could not be read, or holds no XMP, leaves the file's own time and says why.
    static func read(_ bytes: Result<[UInt8], IngestError>, name: String) -> SidecarReading {
        switch bytes {
        case .success(let bytes):
            switch XMPPacket.fields(in: bytes) {
            case .success(let fields): return SidecarReading(fields: fields)
            case .failure(let refusal):
                return SidecarReading(problem: "the XMP sidecar \(name) was not read: \(refusal)")
            }
        case .failure(let error):
            return SidecarReading(problem: "the XMP sidecar \(name) was not read: \(error.message)")
        }
    }

    /// What the file's export says of it, for the resolver: its row of an iCloud CSV, or its
    /// Takeout JSON (one that could not be read, why).
    static func export(of file: LoadedFile) -> CaptureEvidence.Export? {
        if case .icloudCSV(let seconds)? = file.file.sidecar?.format { return .icloud(seconds: seconds) }
        switch file.takeout {
        case nil: return nil
        case .success(let fields)?: return .takeout(fields)
        case .failure(let refusal)?:
            return .unreadable("the Takeout JSON \(file.file.sidecar?.name ?? "") was not read: \(refusal)")
        }
    }

    /// A reference shot (`--clock-reference`): the photo at `path`, which its body took at the
    /// true `time`. Its body, and the offset its clock kept then (the true time minus the time its
    /// clock gave, read as any photo's is, uncorrected).
    ///
    /// - Throws: ``IngestError`` when the file cannot be read, is not a photo, or holds no time of
    ///   the camera's clock.
    public func reference(_ path: String, at time: Date) throws(IngestError) -> (CameraBody, ClockReference) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IngestError(.invalidConfiguration, "the clock reference \(path) cannot be read")
        }
        let bytes = Array(data)
        guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)), !kind.isVideo
        else {
            throw IngestError(.invalidConfiguration, "the clock reference \(path) is not a photo")
        }
        let (fields, identity) = bytes.withUnsafeBytes { raw in
            let structures = ExifLocator.exif(in: raw, kind: kind)
            return (ExifTimeFields(structures), MediaIdentity(structures))
        }
        let capture = self.resolver.resolve(fields, fileModified: Date())
        guard capture.source.readsCameraClock, let clock = capture.localTime else {
            throw IngestError(
                .invalidConfiguration, "the clock reference \(path) holds no time of its camera's clock")
        }
        return (identity.body, ClockReference(cameraClock: clock, seconds: time.timeIntervalSince(capture.instant)))
    }
}
