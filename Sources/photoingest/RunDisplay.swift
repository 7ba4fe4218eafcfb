import IngestCore
import IngestPipeline

/// What the user sees while a run goes: one progress line for the whole run, and the report's
/// line per file and event.
final class RunDisplay: RunObserver {
    let progress: ProgressLine
    let report: ReportWriter?
    private(set) var outsideAll: OutsideAllEvents
    /// The run's progress as last reported: files counted once, whatever the number of events.
    private(set) var lastProgress = RunProgress()

    init(progress: ProgressLine, report: ReportWriter?, events: Int) {
        self.progress = progress
        self.report = report
        self.outsideAll = OutsideAllEvents(events: events)
    }

    func started(_ path: String) {
        self.progress.started(path)
    }

    func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {
        self.report?.write(outcome, event: event)
        self.outsideAll.record(outcome)
    }

    func progressed(_ progress: RunProgress) {
        self.lastProgress = progress
        self.progress.update(
            done: progress.done, discovered: progress.discovered, discoveryDone: progress.discoveryDone,
            bytes: progress.bytesRead, workDone: progress.done - progress.unchanged)
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
