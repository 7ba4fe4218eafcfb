import IngestCore
import IngestPipeline

/// What the user sees while a run goes: the progress line and the per-file report.
final class RunDisplay: RunObserver {
    let progress: ProgressLine
    let report: ReportWriter?
    let event: Event
    private(set) var outsideAll: OutsideAllEvents

    init(progress: ProgressLine, report: ReportWriter?, event: Event, outsideAll: OutsideAllEvents) {
        self.progress = progress
        self.report = report
        self.event = event
        self.outsideAll = outsideAll
    }

    func started(_ path: String) {
        self.progress.started(path)
    }

    func finished(_ outcome: FileOutcome, report: RunReport, discovered: Int, discoveryDone: Bool) {
        self.report?.write(outcome, event: self.event)
        self.outsideAll.record(outcome)
        self.progress.update(
            done: report.filesSeen, discovered: discovered, discoveryDone: discoveryDone, bytes: report.bytesRead,
            workDone: report.filesSeen - report.unchanged)
    }
}

/// Over a run through several events, the photos that fell outside every event's window.
struct OutsideAllEvents {
    let events: Int
    /// Paths outside at least one window, with how many; only these are remembered.
    private var outside: [String: Int] = [:]

    init(events: Int) {
        self.events = events
    }

    mutating func record(_ outcome: FileOutcome) {
        guard self.events > 1, outcome.status == .outside else { return }
        self.outside[outcome.path, default: 0] += 1
    }

    var count: Int { self.outside.values.filter { $0 == self.events }.count }
}
