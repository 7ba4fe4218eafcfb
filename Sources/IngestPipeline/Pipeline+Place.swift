import Foundation
import IngestCatalog
import IngestCore
import IngestImaging

extension Pipeline {
    /// Stages 3-6 for an examined file: placed against every window (by `lead`'s capture time
    /// when the file follows another of its pair), claimed in each event it falls inside,
    /// thumbnailed once, stored in each. A file known only from an earlier run is stored only
    /// once read (``fanOut`` reads it first when some event may take it).
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
        var outcomes = events.map { _ in facts }
        var claims = FileClaims(hash: examined.hash, events: events, dedupe: stages.dedupe)
        await Self.claim(
            &outcomes, &claims, capture: lead ?? examined.capture, events: events, stages: stages, context: context)
        guard !claims.isEmpty else { return outcomes }
        if stages.dryRun {
            // A dry run stores nothing; it says what a run would store.
            for index in claims.held {
                outcomes[index].status = .uploaded
                outcomes[index].dryRun = true
            }
            claims.settleAll(stored: true)
            return outcomes
        }
        guard let loaded = examined.loaded else {
            // Not met: fanOut reads a file known from an earlier run before placing it when an
            // event may take it, and hash sets only grow. Said as a failure, never as stored.
            let error = IngestError(.storeFailed, "not read before storing (a bug); the next run does it")
            for index in claims.held { outcomes[index] = Self.failed(outcomes[index], error, stages: stages) }
            claims.settleAll(stored: false)
            return outcomes
        }
        await Self.store(
            loaded, capture: examined.capture, &outcomes, &claims, events: events, stages: stages, context: context)
        return outcomes
    }

    /// Stages 3 and 4: each outcome placed against its event's window, and the bytes claimed in
    /// every event the photo falls inside (or found a duplicate there).
    private static func claim(
        _ outcomes: inout [FileOutcome], _ claims: inout FileClaims, capture: CaptureTime, events: [Event],
        stages: Stages, context: StageContext
    ) async {
        let placements =
            (try? await stages.event.process(.init(capture: capture, events: events), context: context)) ?? []
        for (index, placement) in placements.enumerated() {
            outcomes[index].nearEdge = placement.nearEdge
            guard placement.isInside else {
                outcomes[index].status = .outside
                outcomes[index].outsideBy = placement.distance
                continue
            }
            do {
                if let reason = try await claims.claim(index, context: context) {
                    outcomes[index].status = .duplicate
                    outcomes[index].reason = reason
                }
            } catch {
                outcomes[index] = Self.failed(outcomes[index], error, stages: stages)
            }
        }
    }

    /// Stages 5 and 6: the thumbnails made once, then the photo stored in every event that
    /// claimed it; each claim settled by how its store went.
    private static func store(
        _ loaded: LoadedFile, capture: CaptureTime, _ outcomes: inout [FileOutcome], _ claims: inout FileClaims,
        events: [Event], stages: Stages, context: StageContext
    ) async {
        let clock = ContinuousClock()
        let started = clock.now
        var loaded = loaded
        let thumbnails: Thumbnails?
        do {
            thumbnails = try await stages.thumbnail.process(loaded, context: context)
        } catch  where loaded.kind.isVideo {
            // A video whose frames cannot be decoded is still worth keeping: stored without thumbnails.
            thumbnails = nil
            for index in claims.held { outcomes[index].reason = "stored without thumbnails: \(error.message)" }
        } catch {
            for index in claims.held { outcomes[index] = Self.failed(outcomes[index], error, stages: stages) }
            claims.settleAll(stored: false)
            return
        }
        // The thumbnails' time counts once, in the first event's outcome.
        if let first = claims.held.first { outcomes[first].timings.seconds[.thumbnail] = (clock.now - started).seconds }
        // An uploader that streams the original from its file needs none of the bytes while it waits.
        if stages.store.destination.readsOriginalFromDisk { loaded.bytes = [] }
        let photo = PreparedPhoto(file: loaded, capture: capture, thumbnails: thumbnails)
        for index in claims.held {
            let storing = clock.now
            do {
                let result = try await stages.store.process(.init(photo: photo, event: events[index]), context: context)
                outcomes[index].status = result == .stored ? .uploaded : .duplicate
                if result == .duplicate {
                    outcomes[index].reason = "the event already holds these bytes"
                } else if let note = thumbnails?.note {
                    outcomes[index].reason = note
                }
                claims.settle(index, stored: true)
            } catch {
                outcomes[index] = Self.failed(outcomes[index], error, stages: stages)
                claims.settle(index, stored: false)
            }
            outcomes[index].timings.seconds[.store] = (clock.now - storing).seconds
        }
    }
}
