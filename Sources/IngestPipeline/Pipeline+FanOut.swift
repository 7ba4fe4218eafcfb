import Foundation
import IngestCatalog
import IngestCore
import IngestDiscovery
import IngestImaging
import IngestOutcome

/// One file through stages 1-7, fanned out to every event that still needs it.
///
/// The file is read, hashed and dated once, and its instant placed against each event's window.
/// For the events it falls inside, each event's hash set decides whether it is new there. The
/// thumbnails are made once for all of them, the photo is stored in each, and each event's
/// outcome is recorded in the catalog. The file's ``FileFacts`` are the same in every event's
/// outcome; the ``Verdict``s differ.
extension Pipeline {
    /// What became of one file: an outcome per event of the run, in the run's order.
    struct FileResult: Sendable {
        var outcomes: [FileOutcome]
        /// Per event: true when an earlier run finished the file there, so it was not looked at again.
        var unchanged: [Bool]
        /// Why stage 7 could not record an outcome, if it could not: the run's catalog problem.
        var catalogProblem: IngestError?
        /// Whether the file was read (for the progress line's bytes).
        var read: Bool { self.outcomes.contains { $0.timings.seconds[.read] != nil } }
    }

    /// Runs the file through stages 1 to 7 for the events at `pending` (indices into `events`);
    /// the others get their outcome from `earlier` (known broken) or an "unchanged" one. With
    /// `known` facts from an earlier run (the file unchanged since), the file is opened only if
    /// some event needs its bytes: then it is read and dated by what it holds now, since its
    /// bytes may have changed under an unchanged stamp. Never throws: every failure becomes the
    /// file's outcome in each event it would have gone to.
    static func ingest(
        _ file: DiscoveredFile, events: [Event], pending: [Int], earlier: [Int: FileOutcome] = [:],
        again: GivenAgain = GivenAgain(), known: KnownFacts? = nil,
        stages: Stages, context: StageContext
    ) async -> FileResult {
        var result = FileResult(unchanged: file, events: events, earlier: earlier)
        guard !pending.isEmpty else { return result }
        let needing = pending.map { events[$0] }
        // 1, 2: read and hashed, then dated.
        var examination = await Self.examine(file, known: known, stages: stages, context: context)
        if case .ready(let examined) = examination, examined.loaded == nil,
            await Self.someEventMayTake(examined, events: needing, stages: stages, context: context)
        {
            examination = await Self.examine(file, known: nil, stages: stages, context: context)
        }
        // 3-6: placed in each window, checked against each hash set, thumbnailed, stored.
        switch examination {
        case .ended(let outcome): result.take(needing.map { _ in outcome }, at: pending, again: again)
        case .ready(let examined):
            result.take(
                await Self.place(file, examined, events: needing, stages: stages, context: context), at: pending,
                again: again)
        }
        // 7: recorded in the catalog.
        await Self.record(&result, stages: stages, context: context)
        return result
    }

    /// Stage 7: each event's outcome handed to that event's catalog recorder (none for a dry
    /// run or without a catalog); what an earlier run decided, and a file with no stamp, stay
    /// as they are. A failure is the run's catalog problem, never the file's outcome.
    static func record(_ result: inout FileResult, stages: Stages, context: StageContext) async {
        for (index, outcome) in result.outcomes.enumerated() where index < stages.recorders.count {
            do {
                try await stages.recorders[index].process(outcome, context: context)
            } catch {
                result.catalogProblem = result.catalogProblem ?? error
            }
        }
    }

    /// Whether some event may take the file: it falls inside the event's window, and the event
    /// does not hold its bytes yet. No claim is taken. A dry run needs the bytes too: it decodes
    /// them as the real run would.
    private static func someEventMayTake(
        _ examined: Examined, events: [Event], stages: Stages, context: StageContext
    ) async -> Bool {
        let placements =
            (try? await stages.event.process(.init(capture: examined.capture, events: events), context: context)) ?? []
        for (placement, event) in zip(placements, events) where placement.isInside {
            if await !stages.dedupe.holds(examined.hash, event: event) { return true }
        }
        return false
    }

    /// The verdict of a file whose work ended with `error`; an error that stops the run stops it.
    static func verdict(_ error: IngestError, stages: Stages) -> Verdict {
        if error.code.stopsTheRun { stages.stop.request(byUser: false) }
        return Verdict(error)
    }
}

extension Pipeline.FileResult {
    /// The result of a file no event needs: each event's outcome from `earlier` (known broken)
    /// or an "unchanged" one.
    init(unchanged file: DiscoveredFile, events: [Event], earlier: [Int: FileOutcome] = [:]) {
        let unchanged = FileOutcome(FileFacts(file), .unchanged)
        self.init(outcomes: events.indices.map { earlier[$0] ?? unchanged }, unchanged: events.map { _ in true })
    }

    /// This run's outcomes for the events at `pending` (indices into the run's events), in their
    /// order. An outcome that gives the file to an event again says so, and why (``GivenAgain``).
    mutating func take(_ outcomes: [FileOutcome], at pending: [Int], again: GivenAgain = GivenAgain()) {
        for (index, outcome) in zip(pending, outcomes) {
            self.outcomes[index] = outcome
            self.unchanged[index] = false
            guard let said = again.note(at: index, for: outcome), case .stored(let note) = outcome.verdict else {
                continue
            }
            self.outcomes[index].verdict = .stored(note: note.map { $0 + "; " + said } ?? said)
        }
    }
}
