import Foundation
import IngestCatalog
import IngestCore
import IngestImaging

/// One file through stages 1-6, fanned out to every event that still needs it.
///
/// The file is read, hashed and dated once; its instant is placed against each event's window;
/// for the events it falls inside, each event's hash set decides whether it is new there; the
/// thumbnails are made once for all of them, and the photo is stored in each. Per-file facts
/// (hash, capture time) are the same in every event's outcome; the verdicts differ.
extension Pipeline {
    /// What became of one file: an outcome per event of the run, in the run's order.
    struct FileResult: Sendable {
        var outcomes: [FileOutcome]
        /// Per event: true when an earlier run finished the file there, so it was not looked at again.
        var unchanged: [Bool]
        /// Whether the file was read (for the progress line's bytes).
        var read: Bool { self.outcomes.contains { $0.timings.seconds[.read] != nil } }
    }

    /// Runs the file for the events at `pending` (indices into `events`); the others get their
    /// outcome from `earlier` (known broken) or an "unchanged" one. With `known` facts from an
    /// earlier run (the file unchanged since), the file is opened only if some event needs its
    /// bytes. Never throws: every failure becomes the file's outcome in each event it would have
    /// gone to.
    static func ingest(
        _ file: DiscoveredFile, events: [Event], pending: [Int], earlier: [Int: FileOutcome] = [:],
        known: FileFacts? = nil,
        stages: Stages, context: StageContext
    ) async -> FileResult {
        var result = FileResult(unchanged: file, events: events, earlier: earlier)
        guard !pending.isEmpty else { return result }
        let fanned = await Self.fanOut(
            file, events: pending.map { events[$0] }, known: known, stages: stages, context: context)
        for (index, outcome) in zip(pending, fanned) {
            result.outcomes[index] = outcome
            result.unchanged[index] = false
        }
        return result
    }

    /// One outcome per event of `events`, in their order.
    private static func fanOut(
        _ file: DiscoveredFile, events: [Event], known: FileFacts?, stages: Stages, context: StageContext
    ) async -> [FileOutcome] {
        var facts = FileOutcome(path: file.path, stamp: file.stamp, status: .failed)
        var loaded: LoadedFile?
        let hash: ContentHash
        let capture: CaptureTime
        if let known {
            // Learned by an earlier run from these very bytes (same stamp): placing needs no read.
            facts.kind = known.kind
            hash = known.sha256
            capture = known.capture
        } else {
            do {
                let read = try await stages.read.process(file, context: context)
                guard case .photo(let photo) = read else {
                    if case .unsupported(let stamp, let reason) = read {
                        facts.stamp = stamp
                        facts.status = .skipped
                        facts.reason = reason
                    }
                    return events.map { _ in facts }
                }
                loaded = photo
                facts.stamp = photo.file.stamp
                facts.kind = photo.kind
                facts.timings.seconds[.read] = photo.readSeconds
                facts.timings.seconds[.hash] = photo.hashSeconds
                hash = photo.hash
                let dated = try await stages.captureTime.process(photo, context: context)
                capture = dated.capture
                facts.timings.seconds[.exif] = dated.exifSeconds
            } catch {
                return events.map { _ in Self.failed(facts, error, stages: stages) }
            }
        }
        facts.sha256 = hash
        facts.capture = capture

        // Place against every window; claim the bytes in each event the photo falls inside.
        let placements =
            (try? await stages.event.process(.init(capture: capture, events: events), context: context)) ?? []
        var outcomes: [FileOutcome] = []
        var claimed: [Int] = []
        for (index, event) in events.enumerated() {
            var outcome = facts
            let placement = placements[index]
            outcome.nearEdge = placement.nearEdge
            if !placement.isInside {
                outcome.status = .outside
                outcome.outsideBy = placement.distance
            } else {
                do {
                    switch try await stages.dedupe.process(.init(hash: hash, event: event), context: context) {
                    case .duplicate(let reason):
                        outcome.status = .duplicate
                        outcome.reason = reason
                    case .new:
                        claimed.append(index)
                    }
                } catch {
                    outcome = Self.failed(outcome, error, stages: stages)
                }
            }
            outcomes.append(outcome)
        }
        guard !claimed.isEmpty else { return outcomes }
        func settle(stored: Bool, _ indices: [Int]) {
            for index in indices { stages.dedupe.settle(hash, event: events[index], stored: stored) }
        }
        if stages.dryRun {
            for index in claimed {
                outcomes[index].status = .uploaded
                outcomes[index].dryRun = true
            }
            settle(stored: true, claimed)
            return outcomes
        }

        // Some event needs the bytes: a file placed from known facts is read now.
        if loaded == nil {
            do {
                let read = try await stages.read.process(file, context: context)
                guard case .photo(let photo) = read, photo.hash == hash else {
                    // Not the bytes the facts were learned from, whatever its stamp says: start afresh.
                    settle(stored: false, claimed)
                    return await Self.fanOut(file, events: events, known: nil, stages: stages, context: context)
                }
                loaded = photo
                for index in claimed {
                    outcomes[index].timings.seconds[.read] = photo.readSeconds
                    outcomes[index].timings.seconds[.hash] = photo.hashSeconds
                }
            } catch {
                for index in claimed { outcomes[index] = Self.failed(outcomes[index], error, stages: stages) }
                settle(stored: false, claimed)
                return outcomes
            }
        }
        guard var photoFile = loaded else { return outcomes }

        // Thumbnails once, for every event the photo goes to.
        let clock = ContinuousClock()
        let started = clock.now
        let thumbnails: Thumbnails?
        do {
            thumbnails = try await stages.thumbnail.process(photoFile, context: context)
        } catch  where photoFile.kind.isVideo {
            // A video whose frames cannot be decoded is still worth keeping: stored without thumbnails.
            thumbnails = nil
            for index in claimed { outcomes[index].reason = "stored without thumbnails: \(error.message)" }
        } catch {
            for index in claimed { outcomes[index] = Self.failed(outcomes[index], error, stages: stages) }
            settle(stored: false, claimed)
            return outcomes
        }
        let thumbnailSeconds = (clock.now - started).seconds
        // An uploader that streams the original from its file needs none of the bytes while it waits.
        if stages.store.destination.readsOriginalFromDisk { photoFile.bytes = [] }
        let photo = PreparedPhoto(file: photoFile, capture: capture, thumbnails: thumbnails)
        for (turn, index) in claimed.enumerated() {
            // The thumbnails' time counts once, in the first event's outcome.
            if turn == 0 { outcomes[index].timings.seconds[.thumbnail] = thumbnailSeconds }
            let storing = clock.now
            do {
                let result = try await stages.store.process(.init(photo: photo, event: events[index]), context: context)
                outcomes[index].status = result == .stored ? .uploaded : .duplicate
                if result == .duplicate {
                    outcomes[index].reason = "the event already holds these bytes"
                } else if let note = thumbnails?.note {
                    outcomes[index].reason = note
                }
                settle(stored: true, [index])
            } catch {
                outcomes[index] = Self.failed(outcomes[index], error, stages: stages)
                settle(stored: false, [index])
            }
            outcomes[index].timings.seconds[.store] = (clock.now - storing).seconds
        }
        return outcomes
    }

    private static func failed(_ outcome: FileOutcome, _ error: IngestError, stages: Stages) -> FileOutcome {
        // A refused token or a server that answers nothing fails every file after this one too:
        // stop the run instead.
        if error.code == .tokenRefused || error.code == .serverUnreachable { stages.stop.request(byUser: false) }
        var failed = outcome
        // Stopped in flight, by Ctrl-C or a server gone: nothing wrong with the file.
        failed.status = error.code == .stopped || error.code == .serverUnreachable ? .pending : .failed
        failed.reason = error.message
        failed.errorCode = error.code.name
        return failed
    }
}

extension Pipeline.FileResult {
    /// The result of a file no event needs: each event's outcome from `earlier` (known broken)
    /// or an "unchanged" one.
    init(unchanged file: DiscoveredFile, events: [Event], earlier: [Int: FileOutcome] = [:]) {
        var unchanged = FileOutcome(
            path: file.path, stamp: file.stamp, status: .skipped, reason: FileOutcome.unchangedReason)
        unchanged.recordInCatalog = false
        self.init(outcomes: events.indices.map { earlier[$0] ?? unchanged }, unchanged: events.map { _ in true })
    }
}
