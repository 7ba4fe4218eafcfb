import AsyncAlgorithms
import IngestCatalog
import IngestCore

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
        let events = configuration.events
        let context = self.context
        let stop = stages.stop
        var discovery = Discovery(
            roots: configuration.paths, includeHidden: configuration.includeHidden, rules: configuration.exclusions,
            excluding: configuration.excludedPaths, batchSize: configuration.limits.discoveryBatchSize,
            shard: configuration.shard)
        discovery.includeTrashed = configuration.includeTrashed
        let channel = AsyncChannel<DiscoveryBatch>()

        // Discovery runs ahead in its own child task; the channel makes it wait when the work is behind.
        // A watch follows the folders from before the walk starts, so that nothing written meanwhile is missed.
        let shouldStop: @Sendable () -> Bool = { stop.isRequested }
        async let walked = Self.discover(discovery, watch: configuration.watch, into: channel, shouldStop: shouldStop)
        await withTaskGroup(of: [FileResult].self) { group in
            var inFlight = 0
            for await found in channel {
                tally.progress.discovered += found.items.count
                tally.progress.discoveryDone = found.isLast
                let earlier = await self.earlierRuns(of: found.items, tally: &tally)
                let groups = Self.nameGroups(found.items, earlier: earlier)
                for position in found.items.indices {
                    if stop.isRequested { break }
                    let work = Self.work(
                        at: position, of: found.items, earlier: earlier, groups: groups, events: events)
                    switch work {
                    case nil: continue
                    case .finished(let result)?: await tally.finish(result)
                    case .unchanged(let file)? where found.companions.contains(file.path):
                        tally.progress.discovered -= 1
                    case .unchanged(let file)?: await tally.finishUnchanged(file, events: events)
                    case let work?:
                        while inFlight >= configuration.limits.filesInFlight, let results = await group.next() {
                            inFlight -= results.count
                            for result in results { await tally.finish(result) }
                        }
                        inFlight += Self.start(
                            work, in: &group, observer: tally.observer, events: events, stages: stages, context: context
                        )
                    }
                }
                if stop.isRequested { break }
                if found.isLive {
                    // A watched file is done when its outcome is in the catalog: a restart must not redo it.
                    while let results = await group.next() {
                        inFlight -= results.count
                        for result in results {
                            if let path = result.outcomes.first?.path, found.companions.contains(path),
                                result.unchanged.allSatisfy({ $0 })
                            {
                                // Read again only to pair the file that arrived.
                                tally.progress.discovered -= 1
                                continue
                            }
                            await tally.finish(result)
                        }
                    }
                    await tally.flush()
                }
            }
            while let results = await group.next() {
                for result in results { await tally.finish(result) }
            }
            // After a stop, take what the walk may still be sending, so that it can see the stop and end.
            for await _ in channel {}
        }
        return await walked
    }

    /// The walk, and for `watch` what arrives after it.
    static func discover(
        _ discovery: Discovery, watch: WatchFeed?, into channel: AsyncChannel<DiscoveryBatch>,
        shouldStop: @escaping @Sendable () -> Bool
    ) async -> Discovery.Tally {
        guard let watch else { return await discovery.walk(into: channel, shouldStop: shouldStop) }
        return await watch.follow(discovery, into: channel, shouldStop: shouldStop) {
            await discovery.walk(into: channel, shouldStop: shouldStop, finishing: false)
        }
    }

    /// What becomes of one item of a walk batch.
    enum Work: Sendable {
        /// Its outcomes, known without opening it: a walk problem, or a file known broken.
        case finished(FileResult)
        /// Finished in every event by an earlier run, and unchanged since: not opened.
        case unchanged(DiscoveredFile)
        /// One file for the events that still need it, with what an earlier run learned of it.
        case file(DiscoveredFile, EarlierRuns.Plan, KnownFacts?)
        /// Files that may be a pair, run as one task so that one can follow the other; a file
        /// done earlier is read again only to pair the others.
        case group([GroupMember])
    }

    /// The work of the item at `position`; nil for a file whose group's first file brings it.
    static func work(
        at position: Int, of items: [DiscoveryItem], earlier: EarlierRuns,
        groups: (members: [Int: [Int]], followers: Set<Int>), events: [Event]
    ) -> Work? {
        guard !groups.followers.contains(position) else { return nil }
        switch items[position] {
        case .problem(let path, let status, let reason):
            let verdict: Verdict = status == .failed ? .failed(IngestError(.unreadable, reason)) : .skipped(reason)
            let outcome = FileOutcome(FileFacts(path: path, stamp: nil), verdict)
            return .finished(FileResult(outcomes: events.map { _ in outcome }, unchanged: events.map { _ in false }))
        case .file(let file):
            if let others = groups.members[position] {
                return .group(
                    ([position] + others).map { member in
                        let plan = earlier.plan(at: member)
                        return GroupMember(file: items[member].file!, pending: plan.pending, earlier: plan.knownBroken)
                    })
            }
            let plan = earlier.plan(at: position)
            guard !plan.pending.isEmpty else {
                return plan.knownBroken.isEmpty
                    ? .unchanged(file)
                    : .finished(FileResult(unchanged: file, events: events, earlier: plan.knownBroken))
            }
            return .file(file, plan, earlier.facts(of: file))
        }
    }

    /// Starts the task of `work` in `group`; returns how many files it holds.
    static func start(
        _ work: Work, in group: inout TaskGroup<[FileResult]>, observer: any RunObserver, events: [Event],
        stages: Stages, context: StageContext
    ) -> Int {
        switch work {
        case .group(let members):
            for member in members { observer.started(member.file.path) }
            group.addTask { await Self.ingest(group: members, events: events, stages: stages, context: context) }
            return members.count
        case .file(let file, let plan, let facts):
            observer.started(file.path)
            group.addTask {
                [
                    await Self.ingest(
                        file, events: events, pending: plan.pending, earlier: plan.knownBroken, known: facts,
                        stages: stages, context: context)
                ]
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
