import AsyncAlgorithms
import Foundation
import IngestCatalog
import IngestCore
import IngestImaging
import Logging

/// The ingest pipeline: for every file under the given paths, stages 1-7 in order.
///
/// 1. ``ReadStage``: read once, SHA-256 as it streams in;
/// 2. ``CaptureTimeStage``: capture time in UTC and where it came from;
/// 3. ``EventStage``: inside or outside the event's window;
/// 4. ``DedupeStage``: against the destination's hash set, fetched once;
/// 5. ``ThumbnailStage``: 500 px and 200 px with libvips, only for photos that will be stored;
/// 6. ``StoreStage``: into the destination;
/// 7. ``CatalogStage``: the outcome, so that a re-run redoes nothing that is done.
///
/// Files flow through a task group that holds at most `limits.filesInFlight` of them; blocking
/// work runs on the context's worker pools. Memory is bounded by those limits, not by the
/// number of files.
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

    /// Runs the pipeline to the end (or to a requested stop) and returns the report.
    ///
    /// - Throws: ``IngestError`` only when the run cannot start (destination or catalog unusable);
    ///   a file's failure is its outcome, never an error of the run.
    public func run(observer: any RunObserver, stop: StopRequest) async throws(IngestError) -> RunReport {
        let clock = ContinuousClock()
        let started = clock.now
        let configuration = self.configuration
        let event = configuration.event
        var report = RunReport(destination: self.destination.identity, event: event, dryRun: configuration.dryRun)

        let known = try await self.destination.prepare(event)
        let stages = Stages(
            captureTime: CaptureTimeStage(resolver: CaptureTimeResolver(assumedZone: configuration.timeZone)),
            event: EventStage(event: event, nearEdgeMargin: configuration.nearEdgeMargin),
            dedupe: DedupeStage(hashes: HashSet(known: known)),
            thumbnail: ThumbnailStage(thumbnailer: configuration.thumbnailer),
            store: StoreStage(destination: self.destination, event: event),
            dryRun: configuration.dryRun, stop: stop)
        let recorder = configuration.dryRun
            ? nil
            : self.catalog.map {
                CatalogStage(
                    catalog: $0, destination: self.destination.identity, event: event,
                    assumedZone: configuration.timeZone, batchSize: configuration.limits.catalogBatchSize)
            }
        do {
            try await recorder?.begin()
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

        // Discovery runs ahead in its own child task; the channel makes it wait when the work is behind.
        async let walked = discovery.walk(into: channel, shouldStop: { stop.isRequested })
        await withTaskGroup(of: FileOutcome.self) { group in
            var inFlight = 0
            var discovered = 0
            var discoveryDone = false
            func finish(_ outcome: FileOutcome, unchanged: Bool = false) async {
                report.add(outcome, unchanged: unchanged)
                if outcome.errorCode == IngestError.Code.tokenRefused.name, report.fatalError == nil {
                    report.fatalError = outcome.reason
                }
                observer.finished(outcome, report: report, discovered: discovered, discoveryDone: discoveryDone)
                do {
                    try await recorder?.process(outcome)
                } catch {
                    report.catalogProblem = report.catalogProblem ?? "recording outcomes in the catalog failed: \(error)"
                }
            }
            for await found in channel {
                let batch = found.items
                discovered += batch.count
                discoveryDone = found.isLast
                let paths = batch.compactMap { if case .file(let file) = $0 { file.path } else { nil } }
                var known: [String: CatalogEntry] = [:]
                do {
                    known = try await catalog?.entries(for: paths, destination: destinationIdentity, event: event.id) ?? [:]
                } catch {
                    // Not knowing what is done costs a re-read, never a lost file.
                    report.catalogProblem = report.catalogProblem ?? "reading the catalog failed: \(error)"
                }
                for item in batch {
                    if stop.isRequested { break }
                    switch item {
                    case .problem(let path, let status, let reason):
                        var outcome = FileOutcome(path: path, stamp: nil, status: status, reason: reason)
                        if status == .failed { outcome.errorCode = IngestError.Code.unreadable.name }
                        await finish(outcome)
                    case .file(let file):
                        if let entry = known[file.path],
                            entry.isDone(stamp: file.stamp, window: event.window.description, zone: configuration.timeZone.identifier)
                        {
                            var outcome = FileOutcome(
                                path: file.path, stamp: file.stamp, status: .skipped,
                                reason: "unchanged since an earlier run")
                            outcome.recordInCatalog = false
                            await finish(outcome, unchanged: true)
                            continue
                        }
                        while inFlight >= configuration.limits.filesInFlight, let outcome = await group.next() {
                            inFlight -= 1
                            await finish(outcome)
                        }
                        observer.started(file.path)
                        inFlight += 1
                        group.addTask { await Self.ingest(file, stages: stages, context: context) }
                    }
                }
                if stop.isRequested { break }
            }
            report.interrupted = stop.isRequested
            while let outcome = await group.next() {
                await finish(outcome)
            }
            // After a stop, take what the walk may still be sending, so that it can see the stop and end.
            for await _ in channel {}
            report.filesDiscovered = discovered
        }
        report.hiddenEntries = await walked.hiddenEntries

        report.elapsedSeconds = (clock.now - started).seconds
        report.destinationStatistics = self.destination.statistics
        do {
            try await recorder?.finish(summary: Self.json(report.jsonObject))
        } catch {
            report.catalogProblem = report.catalogProblem ?? "recording outcomes in the catalog failed: \(error)"
        }
        return report
    }

    /// One file through stages 1-6. Never throws: every failure becomes the file's outcome.
    static func ingest(_ file: DiscoveredFile, stages: Stages, context: StageContext) async -> FileOutcome {
        var claimed: ContentHash?
        let outcome = await Self.ingest(file, stages: stages, context: context, claimed: &claimed)
        // Files with the same bytes wait on this one's claim: settle it whichever way it ended.
        if let claimed {
            if outcome.status == .uploaded || outcome.status == .duplicate {
                stages.dedupe.hashes.stored(claimed)
            } else {
                stages.dedupe.hashes.release(claimed)
            }
        }
        return outcome
    }

    private static func ingest(
        _ file: DiscoveredFile, stages: Stages, context: StageContext, claimed: inout ContentHash?
    ) async -> FileOutcome {
        var outcome = FileOutcome(path: file.path, stamp: file.stamp, status: .failed)
        do {
            let read = try await stages.read.process(file, context: context)
            guard case .photo(var loaded) = read else {
                if case .unsupported(let stamp, let reason) = read {
                    outcome.stamp = stamp
                    outcome.status = .skipped
                    outcome.reason = reason
                }
                return outcome
            }
            outcome.stamp = loaded.file.stamp
            outcome.kind = loaded.kind
            outcome.sha256 = loaded.hash
            outcome.timings.seconds[.read] = loaded.readSeconds
            outcome.timings.seconds[.hash] = loaded.hashSeconds

            let dated = try await stages.captureTime.process(loaded, context: context)
            outcome.capture = dated.capture
            outcome.timings.seconds[.exif] = dated.exifSeconds

            let placed = try await stages.event.process(dated.capture, context: context)
            outcome.nearEdge = placed.nearEdge
            if !placed.isInside {
                outcome.status = .outside
                outcome.outsideBy = placed.distance
                return outcome
            }
            if case .duplicate(let reason) = try await stages.dedupe.process(loaded.hash, context: context) {
                outcome.status = .duplicate
                outcome.reason = reason
                return outcome
            }
            claimed = loaded.hash
            if stages.dryRun {
                outcome.status = .uploaded
                outcome.dryRun = true
                return outcome
            }
            let clock = ContinuousClock()
            var started = clock.now
            let thumbnails = try await stages.thumbnail.process(loaded, context: context)
            outcome.timings.seconds[.thumbnail] = (clock.now - started).seconds
            started = clock.now
            // An uploader that streams the original from its file needs none of the bytes while it waits.
            if stages.store.destination.readsOriginalFromDisk { loaded.bytes = [] }
            let result = try await stages.store.process(
                PreparedPhoto(file: loaded, capture: dated.capture, thumbnails: thumbnails), context: context)
            outcome.timings.seconds[.store] = (clock.now - started).seconds
            outcome.status = result == .stored ? .uploaded : .duplicate
            if result == .duplicate { outcome.reason = "the event already holds these bytes" }
        } catch {
            // A refused token fails every file after this one too: stop the run instead.
            if error.code == .tokenRefused { stages.stop.request() }
            outcome.status = .failed
            outcome.reason = error.message
            outcome.errorCode = error.code.name
        }
        return outcome
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
