import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestDestinations
import IngestDiscovery
import IngestImaging
import IngestOutcome

extension Pipeline {
    /// A file read and dated (or known from an earlier run), ready to be placed and stored.
    struct Examined: Sendable {
        /// What every event's outcome starts from; ``place`` adds the hash and capture time.
        var facts: FileFacts
        /// The time reading, hashing and dating took, counted in every event's outcome.
        var timings: StageTimings.Sample
        var loaded: LoadedFile?
        var hash: ContentHash
        var capture: CaptureTime
        var identity: MediaIdentity
    }

    enum Examination: Sendable {
        case ready(Examined)
        /// Skipped or failed before it could be placed: its outcome in every event.
        case ended(FileOutcome)
    }

    /// Stages 1 and 2: reads, hashes and dates the file, or takes `known` facts (learned by an
    /// earlier run from these very bytes, same stamp: placing needs no read).
    static func examine(
        _ file: DiscoveredFile, known: KnownFacts?, stages: Stages, context: StageContext
    ) async -> Examination {
        var facts = FileFacts(file)
        var timings = StageTimings.Sample()
        if let known {
            facts.kind = known.kind
            var identity = MediaIdentity()
            identity.body = known.camera
            return .ready(
                Examined(
                    facts: facts, timings: timings, loaded: nil, hash: known.sha256, capture: known.capture,
                    identity: identity))
        }
        do {
            let photo: LoadedFile
            switch try await stages.read.process(file, context: context) {
            case .photo(let loaded): photo = loaded
            case .unsupported(let stamp, let reason):
                facts.stamp = stamp
                return .ended(FileOutcome(facts, .skipped(reason)))
            }
            facts.stamp = photo.file.stamp
            facts.kind = photo.kind
            timings.seconds[.read] = photo.readSeconds
            timings.seconds[.hash] = photo.hashSeconds
            let dated = try await stages.captureTime.process(photo, context: context)
            timings.seconds[.exif] = dated.exifSeconds
            return .ready(
                Examined(
                    facts: facts, timings: timings, loaded: photo, hash: photo.hash, capture: dated.capture,
                    identity: dated.identity))
        } catch {
            return .ended(FileOutcome(facts, Self.verdict(error, stages: stages), timings: timings))
        }
    }
}
