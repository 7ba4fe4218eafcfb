import AsyncAlgorithms
import Foundation
import IngestCatalog
import IngestCore
import IngestImaging
import Logging

/// The ingest pipeline: in one pass over the files, for every file, stages 1-7 in order,
/// fanned out to every event of the run.
///
/// 1. ``ReadStage``: read once, SHA-256 as it streams in;
/// 2. ``CaptureTimeStage``: capture time in UTC and where it came from;
/// 3. ``EventStage``: inside or outside each event's window;
/// 4. ``DedupeStage``: against each event's hash set, all fetched once at the start;
/// 5. ``ThumbnailStage``: 500 px and 200 px with libvips, once, only for photos that will be stored;
/// 6. ``StoreStage``: into the destination, for each event the photo goes to;
/// 7. ``CatalogStage``: the outcome per event, so that a re-run redoes nothing that is done.
///
/// The fan-out of one file to the events is ``ingest(_:events:pending:stages:context:)``. Files
/// flow through a task group that holds at most `limits.filesInFlight` of them; blocking work
/// runs on the context's worker pools. Memory is bounded by those limits, not by the number of
/// files or events.
public struct Pipeline: Sendable {
    public var configuration: RunConfiguration
    public var destination: any Destination
    public var catalog: Catalog?
    public var context: StageContext

    public init(configuration: RunConfiguration, destination: any Destination, catalog: Catalog?, context: StageContext) {
        self.configuration = configuration
        self.destination = destination
        self.catalog = catalog
        self.context = context
    }

    /// The stages of one run, with what they share.
    struct Stages: Sendable {
        var read = ReadStage()
        var captureTime: CaptureTimeStage
        var event: EventStage
        var dedupe: DedupeStage
        var thumbnail: ThumbnailStage
        var store: StoreStage
        var dryRun: Bool
        var stop: StopRequest
    }

    /// Runs the pipeline to the end (or to a requested stop) and returns one report per event,
    /// in the order of `configuration.events`.
    ///
    /// - Throws: ``IngestError`` only when the run cannot start (destination or catalog unusable);
    ///   a file's failure is its outcome, never an error of the run.
    public func run(observer: any RunObserver, stop: StopRequest) async throws(IngestError) -> [RunReport] {
        let clock = ContinuousClock()
        let started = clock.now
        let configuration = self.configuration
        let events = configuration.events
        var reports = events.map { RunReport(destination: self.destination.identity, event: $0, dryRun: configuration.dryRun) }

        let hashes = try await self.hashSets(events)
        let stages = Stages(
            captureTime: CaptureTimeStage(resolver: CaptureTimeResolver(assumedZone: configuration.timeZone)),
            event: EventStage(nearEdgeMargin: configuration.nearEdgeMargin),
            dedupe: DedupeStage(hashes: hashes),
            thumbnail: ThumbnailStage(thumbnailer: configuration.thumbnailer),
            store: StoreStage(destination: self.destination),
            dryRun: configuration.dryRun, stop: stop)
        let recorders = configuration.dryRun
            ? []
            : self.catalog.map { catalog in
                events.map {
                    CatalogStage(
                        catalog: catalog, destination: self.destination.identity, event: $0,
                        assumedZone: configuration.timeZone, batchSize: configuration.limits.catalogBatchSize)
                }
            } ?? []
        do {
            for recorder in recorders { try await recorder.begin() }
        } catch {
            throw IngestError(.catalogUnusable, "cannot write to the catalog: \(error)")
        }

        let discovery = Discovery(
            roots: configuration.paths, includeHidden: configuration.includeHidden,
            excluding: configuration.excludedPaths, batchSize: configuration.limits.discoveryBatchSize,
            shard: configuration.shard)
        let channel = AsyncChannel<DiscoveryBatch>()
        let context = self.context
        let catalog = self.catalog
        let destinationIdentity = self.destination.identity
        let zone = configuration.timeZone.identifier
        var catalogProblem: String?
        var progress = RunProgress()

        // Discovery runs ahead in its own child task; the channel makes it wait when the work is behind.
        async let walked = discovery.walk(into: channel, shouldStop: { stop.isRequested })
        await withTaskGroup(of: FileResult.self) { group in
            var inFlight = 0
            func finish(_ result: FileResult) async {
                for (index, outcome) in result.outcomes.enumerated() {
                    reports[index].add(outcome, unchanged: result.unchanged[index])
                    if outcome.errorCode == IngestError.Code.tokenRefused.name, reports[index].fatalError == nil {
                        reports[index].fatalError = outcome.reason
                    }
                    observer.finished(outcome, event: events[index], report: reports[index])
                    do {
                        if index < recorders.count { try await recorders[index].process(outcome) }
                    } catch {
                        catalogProblem = catalogProblem ?? "recording outcomes in the catalog failed: \(error)"
                    }
                }
                progress.done += 1
                if result.unchanged.allSatisfy({ $0 }) { progress.unchanged += 1 }
                if result.read { progress.bytesRead += result.outcomes.first?.size ?? 0 }
                observer.progressed(progress)
            }
            for await found in channel {
                let batch = found.items
                progress.discovered += batch.count
                progress.discoveryDone = found.isLast
                let paths = batch.compactMap { if case .file(let file) = $0 { file.path } else { nil } }
                var known: [[String: CatalogEntry]] = events.map { _ in [:] }
                var learned: [String: FileFacts] = [:]
                do {
                    if let catalog {
                        for (index, event) in events.enumerated() {
                            known[index] = try await catalog.entries(for: paths, destination: destinationIdentity, event: event.id)
                        }
                        learned = try await catalog.facts(for: paths)
                    }
                } catch {
                    // Not knowing what is done costs a re-read, never a lost file.
                    catalogProblem = catalogProblem ?? "reading the catalog failed: \(error)"
                }
                for item in batch {
                    if stop.isRequested { break }
                    switch item {
                    case .problem(let path, let status, let reason):
                        var outcome = FileOutcome(path: path, stamp: nil, status: status, reason: reason)
                        if status == .failed { outcome.errorCode = IngestError.Code.unreadable.name }
                        await finish(FileResult(outcomes: events.map { _ in outcome }, unchanged: events.map { _ in false }))
                    case .file(let file):
                        // The events that still need the file; an earlier run finished it in the others.
                        let pending = events.indices.filter { index in
                            guard let entry = known[index][file.path] else { return true }
                            return !entry.isDone(stamp: file.stamp, window: events[index].window.description, zone: zone)
                        }
                        guard !pending.isEmpty else {
                            await finish(await Self.ingest(file, events: events, pending: [], stages: stages, context: context))
                            continue
                        }
                        while inFlight >= configuration.limits.filesInFlight, let result = await group.next() {
                            inFlight -= 1
                            await finish(result)
                        }
                        // An unchanged file's hash and capture time need no read, unless its time
                        // was read in a zone other than this run's.
                        let facts = learned[file.path].flatMap { facts in
                            facts.stamp == file.stamp && (facts.capture.source != .exifAssumedZone || facts.capture.assumedZone == zone)
                                ? facts : nil
                        }
                        observer.started(file.path)
                        inFlight += 1
                        group.addTask {
                            await Self.ingest(file, events: events, pending: pending, known: facts, stages: stages, context: context)
                        }
                    }
                }
                if stop.isRequested { break }
            }
            while let result = await group.next() {
                await finish(result)
            }
            // After a stop, take what the walk may still be sending, so that it can see the stop and end.
            for await _ in channel {}
        }
        let hiddenEntries = await walked.hiddenEntries
        let summaries = reports.indices.map { index in
            var report = reports[index]
            report.filesDiscovered = progress.discovered
            report.interrupted = stop.isRequested
            report.hiddenEntries = hiddenEntries
            report.elapsedSeconds = (clock.now - started).seconds
            report.destinationStatistics = self.destination.statistics
            report.catalogProblem = catalogProblem
            return report
        }
        reports = summaries
        for (index, recorder) in recorders.enumerated() {
            do {
                try await recorder.finish(summary: Self.json(reports[index].jsonObject))
            } catch {
                reports[index].catalogProblem = reports[index].catalogProblem ?? "recording outcomes in the catalog failed: \(error)"
            }
        }
        return reports
    }

    /// Each event's hash set, fetched from the destination once, a few events at a time.
    func hashSets(_ events: [Event]) async throws(IngestError) -> [String: HashSet] {
        let destination = self.destination
        let fetch: @Sendable (Event) async -> (String, Result<Set<ContentHash>, IngestError>) = { event in
            do throws(IngestError) {
                let known = try await destination.prepare(event)
                return (event.id, .success(known))
            } catch {
                return (event.id, .failure(error))
            }
        }
        let fetched = await withTaskGroup(of: (String, Result<Set<ContentHash>, IngestError>).self) { group in
            var waiting = events.makeIterator()
            for _ in 0..<self.configuration.limits.hashSetFetches {
                guard let event = waiting.next() else { break }
                group.addTask { await fetch(event) }
            }
            var results: [String: Result<Set<ContentHash>, IngestError>] = [:]
            while let (id, result) = await group.next() {
                results[id] = result
                if let event = waiting.next() { group.addTask { await fetch(event) } }
            }
            return results
        }
        var hashes: [String: HashSet] = [:]
        for event in events {
            guard let result = fetched[event.id] else {
                throw IngestError(.invalidConfiguration, "the hash set of event \(event.id) was never fetched")
            }
            hashes[event.id] = HashSet(known: try result.get())
        }
        return hashes
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
