import AsyncAlgorithms
import IngestCatalog
import IngestCore
import IngestDiscovery
import IngestOutcome

/// A watch after its walk: the batches that arrive are scheduled as they come, beside the files
/// in flight, and each result is counted and committed as soon as it is known.
extension Pipeline {
    /// A watch's second: the task that says it.
    static let tick: @Sendable () async -> WalkEvent = {
        try? await Task.sleep(for: .seconds(1))
        return .tick
    }

    /// A watch after its walk: waits for whichever comes first, a file's results or the next batch
    /// that arrived, so that files are worked on side by side as they come and each result is
    /// counted (and, once nothing is in flight, committed to the catalog) as soon as it is known.
    func follow(
        _ arrivals: WatchOutbox, state: inout Scheduling, group: inout TaskGroup<WalkEvent>,
        stages: Stages, tally: inout RunTally
    ) async {
        let next: @Sendable () async -> WalkEvent = { .batch(await arrivals.next()) }
        group.addTask(operation: next)
        group.addTask(operation: Self.tick)
        var ended = false
        while !(ended && state.deferred.isEmpty), let event = await group.next() {
            switch event {
            case .tick:
                tally.observer.ticked()
                if !ended && !stages.stop.isRequested { group.addTask(operation: Self.tick) }
            case .results(let results):
                Self.finish(results, state: &state, tally: &tally)
                while let index = state.deferred.firstIndex(where: { !state.mustWait($0) }) {
                    let found = state.deferred.remove(at: index)
                    await tally.flush()
                    await self.schedule(found, state: &state, group: &group, stages: stages, tally: &tally)
                    // The arrival asked for came back while that batch waited for a slot: it
                    // waits its turn here, and the next one is asked for.
                    guard !state.caught.isEmpty else { continue }
                    for caught in state.caught {
                        if let caught { state.deferred.append(caught) } else { ended = true }
                    }
                    state.caught = []
                    if !ended && !stages.stop.isRequested { group.addTask(operation: next) }
                }
                // Idle: what is known is committed, so that a restart redoes nothing.
                if state.inFlight == 0 { await tally.flush() }
            case .batch(let found?):
                if state.mustWait(found) {
                    state.deferred.append(found)
                } else {
                    // The catalog must know what is done before it is asked about the files that
                    // came: a late partner's file, done a moment ago, is not done twice.
                    await tally.flush()
                    await self.schedule(found, state: &state, group: &group, stages: stages, tally: &tally)
                }
                if stages.stop.isRequested { return }
                group.addTask(operation: next)
            case .batch(nil):
                ended = true
            }
            if stages.stop.isRequested { return }
        }
    }

    /// For a watch busy with the walk's files: schedules the batches that arrived meanwhile (and
    /// those held for a file in flight that has ended), so that a photo taken now goes ahead of
    /// the backlog. Returns whether it scheduled any (a slot must then be waited for again).
    func scheduleArrivals(
        state: inout Scheduling, group: inout TaskGroup<WalkEvent>, stages: Stages, tally: inout RunTally
    ) async -> Bool {
        guard let arrivals = state.arrivals else { return false }
        var scheduled = false
        while !stages.stop.isRequested {
            let next: DiscoveryBatch
            if let index = state.deferred.firstIndex(where: { !state.mustWait($0) }) {
                next = state.deferred.remove(at: index)
            } else if let taken = arrivals.take() {
                guard !state.mustWait(taken) else {
                    state.deferred.append(taken)
                    continue
                }
                next = taken
            } else {
                break
            }
            // The catalog must know what the walk's files did before it is asked about these.
            await tally.flush()
            state.arrived.formUnion(next.items.map(\.path))
            state.arrivals = nil
            await self.schedule(next, state: &state, group: &group, stages: stages, tally: &tally)
            state.arrivals = arrivals
            scheduled = true
        }
        return scheduled
    }
}
