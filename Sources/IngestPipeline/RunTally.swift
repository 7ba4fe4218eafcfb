import IngestCore
import IngestDestinations
import IngestDiscovery
import IngestOutcome

/// What a run counts as its files end: each event's report, the run's progress (each file once),
/// the catalog's first problem. Used from the run's own task only; stage 7 has recorded each
/// file's outcomes in its own task (``Pipeline/record(_:stages:context:)``).
struct RunTally {
    var reports: [RunReport]
    var progress = RunProgress()
    /// Settled folders counted, and their files.
    var settledFolders = 0
    var settledFiles = 0
    /// The first problem with the catalog; it does not stop the run, but the run must not say it went well.
    var catalogProblem: IngestError?
    /// What stopped the run, whichever event's file met it.
    var fatalError: IngestError?
    /// For a run stopped before its end: the files it did not reach that some event still needs,
    /// and the files that ended pending in some event (stopped in flight).
    var notReached = 0
    var leftInFlight = 0
    /// Each event's catalog recorder, written out when a watch goes quiet and when the run ends.
    let recorders: [CatalogStage]
    /// Each camera body's files and times, for the clock offsets its photos suggest.
    var cameras: CameraTally
    let observer: any RunObserver
    let destination: any Destination

    init(
        reports: [RunReport], recorders: [CatalogStage], observer: any RunObserver, destination: any Destination
    ) {
        self.reports = reports
        self.cameras = CameraTally(events: reports.map(\.event))
        self.recorders = recorders
        self.observer = observer
        self.destination = destination
    }

    /// Counts one file's outcomes, one per event, then the file itself.
    mutating func finish(_ result: Pipeline.FileResult) {
        self.cameras.add(result.outcomes)
        for (index, outcome) in result.outcomes.enumerated() {
            self.reports[index].add(outcome, unchanged: result.unchanged[index])
            if let error = outcome.verdict.error, error.code.stopsTheRun, self.fatalError == nil {
                self.fatalError = error
            }
            self.observer.finished(outcome, event: self.reports[index].event, report: self.reports[index])
        }
        if let problem = result.catalogProblem { self.catalogProblem = self.catalogProblem ?? problem }
        if result.outcomes.contains(where: { $0.status == .pending }) { self.leftInFlight += 1 }
        self.progressed(
            unchanged: result.unchanged.allSatisfy { $0 }, bytesRead: result.read ? result.outcomes.first?.size : nil)
    }

    /// Counts a file the run stopped before, in each event (by index) that still needs it.
    mutating func notReached(in events: [Int]) {
        self.notReached += 1
        for index in events where index < self.reports.count { self.reports[index].addNotReached() }
    }

    /// The first problem recording outcomes is the run's catalog problem.
    private mutating func recordingFailed(_ error: any Error) {
        self.catalogProblem =
            self.catalogProblem
            ?? IngestError(.catalogUnusable, "recording outcomes in the catalog failed", because: error)
    }

    /// Writes the outcomes recorded so far to the catalog.
    mutating func flush() async {
        for recorder in self.recorders {
            do {
                try await recorder.flush()
            } catch {
                self.recordingFailed(error)
            }
        }
        self.observer.committed()
    }

    /// Counts a file an earlier run finished in every event and that has not changed since.
    mutating func finishUnchanged(_ file: DiscoveredFile, events: [Event]) {
        guard !self.observer.wantsUnchangedOutcomes else {
            self.finish(Pipeline.FileResult(unchanged: file, events: events))
            return
        }
        for index in self.reports.indices { self.reports[index].addUnchanged(file.path) }
        self.progressed(unchanged: true, bytesRead: nil)
    }

    /// Counts the files of a settled folder: done in every event by an earlier run, and unchanged
    /// since, as the folder's seal says.
    mutating func finishSettled(_ folder: FolderSeal) {
        self.settledFolders += 1
        self.settledFiles += folder.files
        for index in self.reports.indices {
            self.reports[index].addUnchanged(count: folder.files, examples: folder.firstPaths)
        }
        self.progressed(unchanged: true, bytesRead: nil, files: folder.files)
    }

    private mutating func progressed(unchanged: Bool, bytesRead: Int64?, files: Int = 1) {
        self.progress.done += files
        if unchanged { self.progress.unchanged += files }
        self.progress.bytesRead += bytesRead ?? 0
        self.progress.uploads = self.destination.uploads
        self.observer.progressed(self.progress)
    }
}
