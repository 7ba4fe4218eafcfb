import AsyncAlgorithms
import Foundation
import IngestCatalog
import IngestCore
import IngestDating
import IngestDestinations
import IngestImaging
import IngestOutcome
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
/// One file's way through stages 1 to 7, fanned out to the events, is
/// ``ingest(_:events:pending:earlier:again:known:stages:context:)``. Files
/// flow through a task group that holds at most `limits.filesInFlight` of them; blocking work
/// runs on the context's worker pools. Memory is bounded by those limits, not by the number of
/// files or events.
public struct Pipeline: Sendable {
    public var configuration: RunConfiguration
    public var destination: any Destination
    public var catalog: Catalog?
    public var context: StageContext

    public init(configuration: RunConfiguration, destination: any Destination, catalog: Catalog?, context: StageContext)
    {
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
        /// Stage 7, one recorder per event (none for a dry run or without a catalog).
        var recorders: [CatalogStage] = []
        var dryRun: Bool
        var stop: StopRequest
        /// The catalog's note of each send before it begins (none without a catalog).
        var intents: SendingIntents?
    }

    /// Runs the pipeline to the end (or to a requested stop) and returns what it did: what holds
    /// for the whole run, and one report per event, in the order of `configuration.events`.
    ///
    /// - Throws: ``IngestError`` only when the run cannot start (destination or catalog unusable);
    ///   a file's failure is its outcome, never an error of the run.
    public func run(observer: any RunObserver, stop: StopRequest) async throws(IngestError) -> RunSummary {
        let clock = ContinuousClock()
        let started = clock.now
        let configuration = self.configuration
        var stages = Stages(
            captureTime: CaptureTimeStage(
                resolver: configuration.resolver,
                corrections: configuration.clockCorrections),
            event: EventStage(
                nearEdgeMargin: configuration.nearEdgeMargin, zoneIsGuessed: configuration.zoneIsGuessed,
                undated: configuration.undated),
            dedupe: DedupeStage(hashes: try await self.hashSets(configuration.events)),
            thumbnail: ThumbnailStage(thumbnailer: configuration.thumbnailer),
            store: StoreStage(destination: self.destination),
            dryRun: configuration.dryRun, stop: stop)
        // A dry run reads the notes (it says what the real run would), and writes none: it stores nothing.
        if let catalog = self.catalog {
            stages.intents = SendingIntents(
                catalog: catalog, destination: self.destination.identity, atArchive: self.destination.kind.isArchive)
        }
        let recorders = try await self.openRecorders()
        stages.recorders = recorders
        var tally = RunTally(
            reports: configuration.events.map {
                RunReport(destination: self.destination.identity, event: $0, dryRun: configuration.dryRun)
            },
            recorders: recorders, observer: observer, destination: self.destination)

        let passedOver = await self.walk(stages: stages, tally: &tally)

        var run = RunSummary(events: tally.reports)
        run.filesDiscovered = tally.progress.discovered
        run.filesDone = tally.progress.done
        run.filesUnchanged = tally.progress.unchanged
        run.bytesRead = tally.progress.bytesRead
        run.interrupted = stop.isRequestedByUser
        run.stoppedEarly = stop.isRequested
        run.hiddenEntries = passedOver.hiddenEntries
        run.excluded = passedOver.excluded
        run.filelessRoots = passedOver.filelessRoots
        run.withSidecars = passedOver.sidecars
        run.zipFiles = passedOver.zips
        (run.settledFolders, run.settledFiles) = (tally.settledFolders, tally.settledFiles)
        run.takeout = TakeoutCounts(passedOver)
        run.icloud = ICloudCounts(passedOver)
        run.elapsedSeconds = (clock.now - started).seconds
        run.destinationStatistics = self.destination.statistics
        run.fatalError = tally.fatalError
        run.notReached = tally.notReached
        run.leftInFlight = tally.leftInFlight
        run.catalogProblem = tally.catalogProblem
        run.cameras = tally.cameras.summaries()
        for (index, recorder) in recorders.enumerated() {
            do {
                try await recorder.finish(
                    summary: run.summary(of: run.events[index]).jsonText, clockNotes: run.cameraLines)
            } catch {
                run.catalogProblem =
                    run.catalogProblem
                    ?? IngestError(.catalogUnusable, "recording outcomes in the catalog failed", because: error)
            }
        }
        return run
    }

    /// One catalog recorder per event (none for a dry run or without a catalog), each with its run begun.
    func openRecorders() async throws(IngestError) -> [CatalogStage] {
        guard let catalog = self.catalog, !self.configuration.dryRun else { return [] }
        let recorders = self.configuration.events.map {
            CatalogStage(
                catalog: catalog, destination: self.destination.identity, event: $0,
                batchSize: self.configuration.limits.catalogBatchSize, shard: self.configuration.shard?.description)
        }
        do {
            var first: Int64?
            for recorder in recorders {
                let run = try await recorder.begin(invocation: first)
                first = first ?? run
            }
        } catch {
            throw IngestError(.catalogUnusable, "cannot write to the catalog", because: error)
        }
        return recorders
    }

    /// Each event's hash set, prepared by the destination once, a few events at a time.
    func hashSets(_ events: [Event]) async throws(IngestError) -> [String: HashSet] {
        let destination = self.destination
        let fetch: @Sendable (Event) async -> (String, Result<HashSource, IngestError>) = { event in
            do throws(IngestError) {
                let known = try await destination.prepare(event)
                return (event.id, .success(known))
            } catch {
                return (event.id, .failure(error))
            }
        }
        let fetched = await withTaskGroup(of: (String, Result<HashSource, IngestError>).self) { group in
            var waiting = events.makeIterator()
            for _ in 0..<self.configuration.limits.hashSetFetches {
                guard let event = waiting.next() else { break }
                group.addTask { await fetch(event) }
            }
            var results: [String: Result<HashSource, IngestError>] = [:]
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
            hashes[event.id] = HashSet(try result.get())
        }
        return hashes
    }
}
