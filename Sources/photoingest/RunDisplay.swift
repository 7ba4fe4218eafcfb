import IngestCore
import IngestPipeline

/// What the user sees while a run goes: the progress line and the per-file report.
final class RunDisplay: RunObserver {
    let progress: ProgressLine
    let report: ReportWriter?
    let event: Event

    init(progress: ProgressLine, report: ReportWriter?, event: Event) {
        self.progress = progress
        self.report = report
        self.event = event
    }

    func started(_ path: String) {
        self.progress.started(path)
    }

    func finished(_ outcome: FileOutcome, report: RunReport, discovered: Int, discoveryDone: Bool) {
        self.report?.write(outcome, event: self.event)
        self.progress.update(
            done: report.filesSeen, discovered: discovered, discoveryDone: discoveryDone, bytes: report.bytesRead,
            workDone: report.filesSeen - report.unchanged)
    }
}
