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
        result.take(
            await Self.fanOut(file, events: pending.map { events[$0] }, known: known, stages: stages, context: context),
            at: pending)
        return result
    }

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

    /// A file of a group the walk found (one folder, one name up to the extension) and what the
    /// catalog said of it.
    struct GroupMember: Sendable {
        var file: DiscoveredFile
        var pending: [Int]
        var earlier: [Int: FileOutcome]
    }

    /// The files of a group: each examined, then paired by ``Pairing``, then placed, a file that
    /// follows another placed by its lead's capture time. Files the catalog knew are read again,
    /// those already done included: what pairs them is not in the catalog.
    static func ingest(
        group: [GroupMember], events: [Event], stages: Stages, context: StageContext
    ) async -> [FileResult] {
        var examinations: [Examination] = []
        for member in group {
            examinations.append(await Self.examine(member.file, known: nil, stages: stages, context: context))
        }
        var candidates: [Pairing.Member] = []
        var positions: [Int] = []
        for (position, examination) in examinations.enumerated() {
            guard case .ready(let examined) = examination, let kind = examined.facts.kind else { continue }
            candidates.append(
                Pairing.Member(
                    path: group[position].file.path, kind: kind, capture: examined.capture, identity: examined.identity)
            )
            positions.append(position)
        }
        var leads: [Int: CaptureTime] = [:]
        var pairs: [Int: FilePair] = [:]
        for match in Pairing.matches(candidates) {
            let lead = positions[match.lead]
            let follower = positions[match.follower]
            leads[follower] = candidates[match.lead].capture
            pairs[lead] = FilePair(path: group[follower].file.path, reason: match.reason)
            pairs[follower] = FilePair(path: group[lead].file.path, reason: match.reason)
        }
        var results: [FileResult] = []
        for (position, member) in group.enumerated() {
            var result = FileResult(unchanged: member.file, events: events, earlier: member.earlier)
            // A file done earlier was read only so that its partner can follow it.
            guard !member.pending.isEmpty else {
                results.append(result)
                continue
            }
            let pending = member.pending.map { events[$0] }
            let outcomes: [FileOutcome]
            switch examinations[position] {
            case .ended(let outcome): outcomes = pending.map { _ in outcome }
            case .ready(let examined):
                outcomes = await Self.place(
                    member.file, examined, events: pending, lead: leads[position], pair: pairs[position],
                    stages: stages,
                    context: context)
            }
            result.take(outcomes, at: member.pending)
            results.append(result)
        }
        return results
    }

    /// One outcome per event of `events`, in their order.
    private static func fanOut(
        _ file: DiscoveredFile, events: [Event], known: FileFacts?, stages: Stages, context: StageContext
    ) async -> [FileOutcome] {
        switch await Self.examine(file, known: known, stages: stages, context: context) {
        case .ended(let outcome): return events.map { _ in outcome }
        case .ready(let examined):
            return await Self.place(file, examined, events: events, stages: stages, context: context)
        }
    }

    /// Stages 3-6 for an examined file: placed against every window (by `lead`'s capture time
    /// when the file follows another of its pair), claimed in each event it falls inside,
    /// thumbnailed once, stored in each.
    static func place(
        _ file: DiscoveredFile, _ examined: Examined, events: [Event], lead: CaptureTime? = nil, pair: FilePair? = nil,
        stages: Stages, context: StageContext
    ) async -> [FileOutcome] {
        var facts = examined.facts
        facts.sha256 = examined.hash
        facts.capture = examined.capture
        // A motion photo is a pair in one file: its clip is inside it.
        facts.pair =
            pair
            ?? examined.identity.motionPhoto.map {
                FilePair(path: file.path, reason: "motion photo: its clip is inside the still (\($0))")
            }
        var loaded = examined.loaded
        let hash = examined.hash

        // Place against every window; claim the bytes in each event the photo falls inside.
        let placements =
            (try? await stages.event.process(.init(capture: lead ?? examined.capture, events: events), context: context))
            ?? []
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
        let photo = PreparedPhoto(file: photoFile, capture: examined.capture, thumbnails: thumbnails)
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

    /// This run's outcomes for the events at `pending` (indices into the run's events), in their order.
    mutating func take(_ outcomes: [FileOutcome], at pending: [Int]) {
        for (index, outcome) in zip(pending, outcomes) {
            self.outcomes[index] = outcome
            self.unchanged[index] = false
        }
    }
}
