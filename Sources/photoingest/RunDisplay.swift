import IngestCore
import IngestPipeline

/// What the user sees while a run goes: one progress line for the whole run, and the report's
/// lines: one per file and event, or one for the file as a whole when it never reached an event
/// (skipped, failed before any), or, with several events, one more for a file outside every event.
final class RunDisplay: RunObserver {
    let progress: ProgressLine
    let report: ReportWriter?
    let events: Int
    /// The outcomes of the file now ending, one per event, written once all have come.
    private var current: [(FileOutcome, Event)] = []
    /// With several events, the files that fell outside every event's window.
    private(set) var outsideAll = 0
    /// The run's progress as last reported: files counted once, whatever the number of events.
    private(set) var lastProgress = RunProgress()

    init(progress: ProgressLine, report: ReportWriter?, events: Int) {
        self.progress = progress
        self.report = report
        self.events = events
    }

    func started(_ path: String) {
        self.progress.started(path)
    }

    func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {
        self.current.append((outcome, event))
    }

    func progressed(_ progress: RunProgress) {
        self.writeCurrentFile()
        self.lastProgress = progress
        self.progress.update(progress)
    }
}

extension RunDisplay {
    /// The report's lines for the file whose outcomes just came.
    private func writeCurrentFile() {
        defer { self.current.removeAll(keepingCapacity: true) }
        let outsideAll = self.events > 1 && !self.current.isEmpty && self.current.allSatisfy { $0.0.status == .outside }
        if outsideAll { self.outsideAll += 1 }
        guard let report = self.report, let (first, _) = self.current.first else { return }
        // Skipped (an earlier run's work included), or failed before it could be dated: the same
        // for every event, said once.
        let beforeAnyEvent = first.status == .skipped || (first.status == .failed && first.capture == nil)
        if beforeAnyEvent && self.current.allSatisfy({ $0.0.status == first.status && $0.0.reason == first.reason }) {
            report.write(first, event: nil)
            return
        }
        for (outcome, event) in self.current { report.write(outcome, event: event) }
        if outsideAll {
            var outside = first
            outside.outsideBy = nil
            outside.nearEdge = nil
            report.write(outside, event: nil)
        }
    }
}
