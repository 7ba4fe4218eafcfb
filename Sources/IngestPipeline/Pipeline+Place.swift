import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestDestinations
import IngestDiscovery
import IngestImaging
import IngestOutcome

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
        facts.camera = examined.identity.body
        // A motion photo is a pair in one file: its clip is inside it.
        facts.pair =
            pair
            ?? examined.identity.motionPhoto.map {
                FilePair(path: file.path, reason: "motion photo: its clip is inside the still (\($0))")
            }
        var claims = FileClaims(hash: examined.hash, events: events, dedupe: stages.dedupe)
        var placed = await Self.claim(
            &claims, path: file.path, capture: lead ?? examined.capture, events: events, stages: stages,
            context: context)
        if !claims.isEmpty {
            await Self.store(examined, &claims, &placed, events: events, stages: stages, context: context)
        }
        return placed.map { placement in
            var outcome = FileOutcome(facts, placement.verdict, timings: examined.timings)
            outcome.nearEdge = placement.nearEdge
            if let seconds = placement.storeSeconds { outcome.timings.seconds[.store] = seconds }
            if let seconds = placement.thumbnailSeconds { outcome.timings.seconds[.thumbnail] = seconds }
            return outcome
        }
    }

    /// One event's part of ``place``: its verdict (none yet while the file holds a claim there),
    /// and what only that event's outcome says.
    private struct Placed {
        var verdict: Verdict = .failed(IngestError(.storeFailed, "claimed but never settled (a bug)"))
        var nearEdge: NearEdge?
        var storeSeconds: Double?
        var thumbnailSeconds: Double?
    }

    /// Stages 3 and 4: placed against each event's window, and the bytes claimed in every event
    /// the photo falls inside (or found a duplicate there). A claimed event's verdict waits for
    /// the store.
    private static func claim(
        _ claims: inout FileClaims, path: String, capture: CaptureTime, events: [Event], stages: Stages,
        context: StageContext
    ) async -> [Placed] {
        let placements =
            (try? await stages.event.process(.init(capture: capture, events: events), context: context)) ?? []
        var placed = events.map { _ in Placed() }
        for (index, placement) in placements.enumerated() {
            placed[index].nearEdge = placement.nearEdge
            if let verdict = placement.weakTime {
                placed[index].verdict = verdict
                continue
            }
            guard placement.isInside else {
                placed[index].verdict = .outside(by: placement.distance)
                continue
            }
            do {
                if let reason = try await claims.claim(index, context: context) {
                    // Held because a run killed mid-send had sent it: this tool's own upload.
                    if reason == DedupeStage.heldReason, let intents = stages.intents,
                        await intents.wasSent(claims.hash, of: path, to: events[index])
                    {
                        placed[index].verdict = .stored(note: intents.sentBeforeStop)
                    } else {
                        placed[index].verdict = .duplicate(reason)
                    }
                }
            } catch {
                placed[index].verdict = Self.verdict(error, stages: stages)
            }
        }
        return placed
    }

    /// Stages 5 and 6: the thumbnails made once, then the photo stored in every event that
    /// claimed it; each claim settled, and its event's verdict given, by how its store went.
    private static func store(
        _ examined: Examined, _ claims: inout FileClaims, _ placed: inout [Placed], events: [Event], stages: Stages,
        context: StageContext
    ) async {
        guard var loaded = examined.loaded else {
            // Not met: fanOut reads a file known from an earlier run before placing it when an
            // event may take it, and hash sets only grow. Said as a failure, never as stored.
            let error = IngestError(.storeFailed, "not read before storing (a bug); the next run does it")
            for index in claims.held { placed[index].verdict = Self.verdict(error, stages: stages) }
            claims.settleAll(stored: false)
            return
        }
        let clock = ContinuousClock()
        let started = clock.now
        guard let (thumbnails, note) = await Self.thumbnails(loaded, &claims, &placed, stages: stages, context: context)
        else { return }
        if stages.dryRun {
            // Decoded and thumbnailed in memory, so that what fails here fails in the real run;
            // nothing is stored.
            for index in claims.held { placed[index].verdict = .wouldStore }
            claims.settleAll(stored: true)
            return
        }
        // The thumbnails' time counts once, in the first event's outcome.
        if let first = claims.held.first { placed[first].thumbnailSeconds = (clock.now - started).seconds }
        // An uploader that streams the original from its file needs none of the bytes while it
        // waits; a zip's entry has no file of its own, so its bytes are what is sent.
        if stages.store.destination.readsOriginalFromDisk && loaded.file.member == nil { loaded.releaseBytes() }
        let photo = PreparedPhoto(file: loaded, capture: examined.capture, thumbnails: thumbnails)
        for index in claims.held {
            let storing = clock.now
            await stages.intents?.willSend(examined.hash, of: loaded.file.path, to: events[index])
            do {
                let result = try await stages.store.process(.init(photo: photo, event: events[index]), context: context)
                placed[index].verdict =
                    result == .stored
                    ? .stored(note: note)
                    : .duplicate("the event already holds these bytes (stored since this run read what it holds)")
                // Bytes the event's hash set did not hold: a watch fetches it again soon.
                if result != .stored { stages.dedupe.hashes[events[index].id]?.markStale() }
                claims.settle(index, stored: true)
            } catch {
                placed[index].verdict = Self.verdict(error, stages: stages)
                claims.settle(index, stored: false)
            }
            placed[index].storeSeconds = (clock.now - storing).seconds
        }
    }

    /// Stage 5: the thumbnails, and the note every stored event's verdict carries. A video
    /// whose frames cannot be decoded, or a raw photo with no preview, is still worth keeping,
    /// without thumbnails; for any other
    /// failure every claim is released, its verdict given, and nil returned.
    private static func thumbnails(
        _ loaded: LoadedFile, _ claims: inout FileClaims, _ placed: inout [Placed], stages: Stages,
        context: StageContext
    ) async -> (Thumbnails?, note: String?)? {
        do {
            let thumbnails = try await stages.thumbnail.process(loaded, context: context)
            return (thumbnails, thumbnails.note)
        } catch  where loaded.kind.isVideo || error.code == .noPreview {
            return (nil, "stored without thumbnails: \(error.message)")
        } catch {
            for index in claims.held { placed[index].verdict = Self.verdict(error, stages: stages) }
            claims.settleAll(stored: false)
            return nil
        }
    }
}
