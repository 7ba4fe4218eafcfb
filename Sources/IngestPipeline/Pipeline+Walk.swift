import AsyncAlgorithms
import IngestCatalog
import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestOutcome

/// The walk and the scheduling of files: discovery streams batches of files; for each batch the
/// catalog says which events still need which file; each file some event needs runs through
/// ``Pipeline/ingest(_:events:pending:earlier:known:stages:context:)`` in a task group that holds at most
/// `limits.filesInFlight` files.
extension Pipeline {
    /// Walks the paths and brings every file found to its outcomes in `tally`, or stops early on
    /// request with every started file finished. Returns what the walk passed over: hidden
    /// entries, and those the exclusion rules left out.
    func walk(stages: Stages, tally: inout RunTally) async -> Discovery.Tally {
        let configuration = self.configuration
        let stop = stages.stop
        var discovery = configuration.discovery
        let sealing = self.sealing(of: &discovery, observer: tally.observer)
        let channel = AsyncChannel<DiscoveryBatch>()

        // Discovery runs ahead in its own child task; the channel makes it wait when the work is behind.
        // A watch follows the folders from before the walk starts, so that nothing written meanwhile is missed.
        // A run stopped before its end walks on, starting nothing, to count what it leaves.
        let watching = configuration.watch != nil
        let shouldStop: @Sendable () -> Bool = { watching && stop.isRequested }
        var watch = configuration.watch
        // Only where others add photos meanwhile (a server's other clients) is there anything to fetch again.
        if self.destination.holdingsChangeMeanwhile {
            watch?.refreshHashSets = {
                [destination = self.destination, hashes = stages.dedupe.hashes, events = configuration.events] in
                await Self.refresh(hashes, of: events, from: destination)
            }
            watch?.hashSetsStale = { [hashes = stages.dedupe.hashes] in
                // Every set asked, so that each forgets it was found stale: one refresh fetches all.
                hashes.values.map { $0.takeStale() }.contains(true)
            }
        }
        let arrivals = WatchOutbox()
        async let walked = Self.discover(
            discovery, watch: watch, into: channel, arrivals: arrivals, shouldStop: shouldStop)
        await withTaskGroup(of: WalkEvent.self) { group in
            var state = Scheduling(limit: configuration.limits.filesInFlight)
            state.sealing = sealing
            if watching {
                // What arrives while the walk's files (a backlog) are worked on goes first.
                state.running = []
                state.arrivals = arrivals
            }
            for await found in channel {
                await self.schedule(found, state: &state, group: &group, stages: stages, tally: &tally)
                if stop.isRequested || (found.isLast && watching) { break }
            }
            (state.arrivals, state.arrived) = (nil, [])
            if watching && !stop.isRequested {
                await self.follow(arrivals, state: &state, group: &group, stages: stages, tally: &tally)
            }
            while let event = await group.next() {
                if case .results(let results) = event { Self.finish(results, state: &state, tally: &tally) }
            }
            await self.recordSeals(&state.sealing, atEnd: true)
            // After a stop, take what the walk may still be sending, so that it can see the stop and
            // end; a run counts in it the files some event still needs.
            for await found in channel {
                guard !watching else { continue }
                let earlier = await self.earlierRuns(of: found.items, tally: &tally)
                Self.countNotReached(found.items, from: 0, earlier: earlier, started: [:], tally: &tally)
            }
        }
        return await walked
    }

    /// What the walk's task group hands back: a task's files' results, or (for a watch) the next
    /// batch of files that arrived, nil when the watch has ended.
    enum WalkEvent: Sendable {
        case results([FileResult])
        case batch(DiscoveryBatch?)
        /// A second passed (a watch's status lines go on while it is idle).
        case tick
    }

    /// Starts the work of one batch, waiting for results whenever the group holds its limit.
    func schedule(
        _ found: DiscoveryBatch, state: inout Scheduling, group: inout TaskGroup<WalkEvent>, stages: Stages,
        tally: inout RunTally
    ) async {
        let events = self.configuration.events
        tally.progress.discovered += found.files
        tally.progress.discoveryDone = tally.progress.discoveryDone || found.isLast
        state.companions.formUnion(found.companions)
        // As a file is, a settled folder is counted only while the run goes on.
        if !stages.stop.isRequested { for folder in found.settled { tally.finishSettled(folder) } }
        state.sealing?.open(found.seals)
        let earlier = await self.earlierRuns(of: found.items, tally: &tally)
        let groups = Self.nameGroups(found.items, earlier: earlier)
        // For a watch busy with its backlog: the batch's files an arrival did instead (each
        // passed over once, with the files of its group).
        var passedOver: Set<Int> = []
        func passOver(_ positions: [Int], tally: inout RunTally) {
            for position in positions where passedOver.insert(position).inserted { tally.progress.discovered -= 1 }
        }
        for position in found.items.indices {
            if stages.stop.isRequested {
                if self.configuration.watch == nil {
                    Self.countNotReached(
                        found.items, from: position, earlier: earlier, started: groups.members, tally: &tally)
                } else {
                    // A watch's files not started are found again when it starts again: not counted now.
                    let inFlight = Self.inFlight(before: position, groups: groups.members)
                    passOver((position..<found.items.count).filter { !inFlight.contains($0) }, tally: &tally)
                }
                break
            }
            if passedOver.contains(position) { continue }
            if state.arrivals != nil && state.arrived.contains(found.items[position].path) {
                passOver([position] + (groups.members[position] ?? []), tally: &tally)
                continue
            }
            let work = Self.work(at: position, of: found.items, earlier: earlier, groups: groups, events: events)
            if state.sealing != nil, let file = found.items[position].file {
                var done = false
                if case .unchanged? = work { done = true }
                state.sealing?.found(file.path, done: done)
            }
            switch work {
            case nil: continue
            case .finished(let result)?: tally.finish(result)
            // A run has no companions: a nightly re-run's 100,000 unchanged paths are not hashed for them.
            case .unchanged(let file)? where !state.companions.isEmpty && state.companions.remove(file.path) != nil:
                tally.progress.discovered -= 1
            case .unchanged(let file)?: tally.finishUnchanged(file, events: events)
            case let work?:
                repeat {
                    while state.inFlight >= state.limit, let event = await group.next() {
                        // Only results and a watch's ticks come back while the group is full: a
                        // watch asks for its next batch after this one is started.
                        switch event {
                        case .results(let results): Self.finish(results, state: &state, tally: &tally)
                        case .tick:
                            tally.observer.ticked()
                            group.addTask(operation: Self.tick)
                        // A watch's next arrival, asked for before this batch: kept for the follow loop.
                        case .batch(let next): state.caught.append(next)
                        }
                    }
                } while await self.scheduleArrivals(state: &state, group: &group, stages: stages, tally: &tally)
                if state.arrivals != nil && work.paths.contains(where: state.arrived.contains) {
                    passOver([position] + (groups.members[position] ?? []), tally: &tally)
                    continue
                }
                state.inFlight += Self.start(
                    work, in: &group, observer: tally.observer, events: events, stages: stages, context: self.context)
                if state.running != nil {
                    switch work {
                    case .file(let file, _, _): state.running?.insert(file.path)
                    case .group(let members): for member in members { state.running?.insert(member.file.path) }
                    case .finished, .unchanged: break
                    }
                }
            }
        }
        await self.recordSeals(&state.sealing, idle: state.inFlight == 0)
    }

    /// Counts as not reached the files of `items` from `start` on that some event still needs; a
    /// file of a group begun before `start` (`started`, by its first position) is in flight.
    static func countNotReached(
        _ items: [DiscoveryItem], from start: Int, earlier: EarlierRuns, started groups: [Int: [Int]],
        tally: inout RunTally
    ) {
        let inFlight = Self.inFlight(before: start, groups: groups)
        for position in start..<items.count where items[position].file != nil && !inFlight.contains(position) {
            let pending = earlier.plan(at: position).pending
            if !pending.isEmpty { tally.notReached(in: pending) }
        }
    }

    /// The positions from `position` on that a group begun before it holds: in flight with it.
    static func inFlight(before position: Int, groups: [Int: [Int]]) -> Set<Int> {
        Set(groups.filter { $0.key < position }.values.joined())
    }

    /// Counts the results of one task; a watch's companion, read again only to pair the file that
    /// arrived, ends without an outcome of its own.
    static func finish(_ results: [FileResult], state: inout Scheduling, tally: inout RunTally) {
        state.inFlight -= results.count
        for result in results {
            let path = result.outcomes.first?.path
            // Its rows are written (or about to be): its folder is not sealed this run.
            if let path { state.sealing?.wrote(path) }
            if state.running != nil, let path { state.running?.remove(path) }
            if !state.companions.isEmpty, let path, state.companions.remove(path) != nil,
                result.unchanged.allSatisfy({ $0 })
            {
                tally.progress.discovered -= 1
                continue
            }
            tally.finish(result)
        }
    }

    /// Fetches each event's hash set again, for a watch: what phones uploaded meanwhile is then
    /// a duplicate here, not an upload. A fetch that fails keeps the set it had.
    static func refresh(_ hashes: [String: HashSet], of events: [Event], from destination: any Destination) async {
        for event in events {
            guard let set = hashes[event.id], case .fetched(let known)? = try? await destination.prepare(event) else {
                continue
            }
            set.refresh(known)
        }
    }

    /// The walk, and for `watch` what arrives after it.
    static func discover(
        _ discovery: Discovery, watch: WatchFeed?, into channel: AsyncChannel<DiscoveryBatch>,
        arrivals: WatchOutbox, shouldStop: @escaping @Sendable () -> Bool
    ) async -> Discovery.Tally {
        guard let watch else { return await discovery.walk(into: channel, shouldStop: shouldStop) }
        return await watch.follow(discovery, arrivals: arrivals, shouldStop: shouldStop) {
            await discovery.walk(into: channel, shouldStop: shouldStop)
        }
    }

    /// Starts the task of `work` in `group`; returns how many files it holds.
    static func start(
        _ work: Work, in group: inout TaskGroup<WalkEvent>, observer: any RunObserver, events: [Event],
        stages: Stages, context: StageContext
    ) -> Int {
        switch work {
        case .group(let members):
            for member in members { observer.started(member.file.path) }
            group.addTask {
                .results(await Self.ingest(group: members, events: events, stages: stages, context: context))
            }
            return members.count
        case .file(let file, let plan, let facts):
            observer.started(file.path)
            group.addTask {
                .results([
                    await Self.ingest(
                        file, events: events, pending: plan.pending, earlier: plan.knownBroken, again: plan.again,
                        known: facts, stages: stages, context: context)
                ])
            }
            return 1
        case .finished, .unchanged:
            return 0
        }
    }

    /// The batch's files that share a folder and a name up to the extension (compared without
    /// case), which ``Pairing`` may find to be pairs, where some event needs one of them.
    ///
    /// A file an earlier run finished may be the one its new partner follows. `members` maps a
    /// group's first position to the others; `followers` holds those others. A batch with nothing
    /// to do, a nightly re-run's, costs nothing here.
    static func nameGroups(
        _ batch: [DiscoveryItem], earlier: EarlierRuns
    ) -> (members: [Int: [Int]], followers: Set<Int>) {
        let needed = Set(batch.indices.filter { batch[$0].file != nil && !earlier.plan(at: $0).pending.isEmpty })
        guard !needed.isEmpty else { return ([:], []) }
        var byStem: [String: [Int]] = [:]
        for (position, item) in batch.enumerated() {
            guard let file = item.file, let stem = Discovery.stem(of: file.path) else { continue }
            byStem[stem, default: []].append(position)
        }
        var members: [Int: [Int]] = [:]
        var followers: Set<Int> = []
        for positions in byStem.values where positions.count > 1 && positions.contains(where: needed.contains) {
            members[positions[0]] = Array(positions.dropFirst())
            followers.formUnion(positions.dropFirst())
        }
        return (members, followers)
    }

    /// What the catalog knows of the batch's files. Not knowing costs a re-read, never a lost file:
    /// a catalog that cannot be read is reported and the files are done again.
    private func earlierRuns(of batch: [DiscoveryItem], tally: inout RunTally) async -> EarlierRuns {
        let zone = self.configuration.timeZone.name
        let events = self.configuration.events
        guard let catalog = self.catalog else { return EarlierRuns(events: events.count, zone: zone) }
        do {
            return try await EarlierRuns(
                batch: batch, catalog: catalog, destination: self.destination.identity, events: events,
                zone: zone, readsPositions: self.configuration.zones != nil,
                retryFailed: self.configuration.retryFailed,
                corrections: self.configuration.clockCorrections, undated: self.configuration.undated)
        } catch {
            tally.catalogProblem =
                tally.catalogProblem ?? IngestError(.catalogUnusable, "reading the catalog failed", because: error)
            return EarlierRuns(events: events.count, zone: zone)
        }
    }
}
