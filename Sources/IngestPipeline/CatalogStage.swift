import Foundation
import IngestCatalog
import IngestCore
import IngestOutcome

/// Stage 7: records every file's outcome in the catalog, in batches, one transaction each.
///
/// The catalog has one writer: this actor. An outcome is recorded after the destination
/// accepted the file, so a crash can lose only the last batch's records, whose files the next
/// run reads again and finds already stored.
public actor CatalogStage: Stage {
    public let catalog: Catalog
    let destination: String
    let event: Event
    let batchSize: Int
    /// The run's part of a sharded import (`3/8`), recorded with the run.
    let shard: String?
    /// A batch waits at most this long, so that a slow run still commits as it goes.
    let maximumDelay: Duration

    private var run: Int64?
    private var pending: [CatalogRecord] = []
    private var lastFlush = ContinuousClock.now
    /// The last commit begun: the next waits for it, so that batches land in the order they were
    /// taken even when a file's call comes in while one is being written (a watch may record
    /// one path twice in a run; the later outcome must stand).
    private var committing: Task<Void, any Error>?

    public init(
        catalog: Catalog, destination: String, event: Event, batchSize: Int, shard: String? = nil,
        maximumDelay: Duration = .seconds(1)
    ) {
        self.maximumDelay = maximumDelay
        self.catalog = catalog
        self.destination = destination
        self.event = event
        self.batchSize = batchSize
        self.shard = shard
    }

    /// Begins the event's run and returns its id; `invocation` is the first event's run, when
    /// this is not the first.
    @discardableResult
    public func begin(invocation: Int64? = nil) async throws -> Int64 {
        let run = try await self.catalog.beginRun(
            destination: self.destination, event: self.event.id, eventName: self.event.name, invocation: invocation,
            shard: self.shard)
        self.run = run
        return run
    }

    /// Queues the outcome, writing the batch when it is full or old enough. Each file's task
    /// calls this once its outcome is known; the outcomes of many files go in one commit.
    ///
    /// - Throws: ``IngestError`` `.catalogUnusable` when the batch could not be written.
    public func process(_ outcome: FileOutcome, context: StageContext) async throws(IngestError) {
        do {
            try await self.record(outcome)
        } catch {
            throw IngestError(.catalogUnusable, "recording outcomes in the catalog failed", because: error)
        }
    }

    private func record(_ outcome: FileOutcome) async throws {
        guard outcome.recordInCatalog, let stamp = outcome.stamp else { return }
        self.pending.append(
            CatalogRecord(
                path: outcome.path, stamp: stamp, sha256: outcome.sha256, mediaType: outcome.kind?.mediaType,
                capture: outcome.capture, destination: self.destination, event: self.event.id,
                window: self.event.window, status: outcome.status, reason: outcome.reason,
                errorCode: outcome.errorCode?.name,
                // The zone a time without one was read in (the camera's, or a name's).
                assumedZone: outcome.capture?.assumedZone,
                pair: outcome.pair, camera: outcome.camera, sidecar: outcome.facts.sidecar?.fingerprint))
        if self.pending.count >= self.batchSize || ContinuousClock.now - self.lastFlush >= self.maximumDelay {
            try await self.flush()
        }
    }

    /// Writes the outcomes queued so far, after the commit before them.
    public func flush() async throws {
        guard let run = self.run, !self.pending.isEmpty else {
            _ = await self.committing?.result
            return
        }
        let batch = self.pending
        self.pending.removeAll(keepingCapacity: true)
        self.lastFlush = .now
        let (previous, catalog) = (self.committing, self.catalog)
        let commit = Task {
            // The earlier batch's failure was said to its own caller.
            _ = await previous?.result
            try await catalog.record(batch, run: run)
        }
        self.committing = commit
        try await commit.value
    }

    /// Writes what is left and closes the run with its summary and its clock notes.
    public func finish(summary: String, clockNotes: [String] = []) async throws {
        try await self.flush()
        if let run = self.run { try await self.catalog.finishRun(run, summary: summary, clockNotes: clockNotes) }
    }
}
