import Foundation
import IngestCatalog
import IngestCore
import IngestImaging

extension Pipeline {
    /// A file read and dated (or known from an earlier run), ready to be placed and stored.
    struct Examined: Sendable {
        /// What every event's outcome starts from; ``place`` adds the hash and capture time.
        var facts: FileOutcome
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
        _ file: DiscoveredFile, known: FileFacts?, stages: Stages, context: StageContext
    ) async -> Examination {
        var facts = FileOutcome(path: file.path, stamp: file.stamp, status: .failed)
        if let known {
            facts.kind = known.kind
            return .ready(
                Examined(
                    facts: facts, loaded: nil, hash: known.sha256, capture: known.capture, identity: MediaIdentity()))
        }
        do {
            let read = try await stages.read.process(file, context: context)
            guard case .photo(let photo) = read else {
                if case .unsupported(let stamp, let reason) = read {
                    facts.stamp = stamp
                    facts.status = .skipped
                    facts.reason = reason
                }
                return .ended(facts)
            }
            facts.stamp = photo.file.stamp
            facts.kind = photo.kind
            facts.timings.seconds[.read] = photo.readSeconds
            facts.timings.seconds[.hash] = photo.hashSeconds
            let dated = try await stages.captureTime.process(photo, context: context)
            facts.timings.seconds[.exif] = dated.exifSeconds
            return .ready(
                Examined(
                    facts: facts, loaded: photo, hash: photo.hash, capture: dated.capture, identity: dated.identity))
        } catch {
            return .ended(Self.failed(facts, error, stages: stages))
        }
    }
}
