import Foundation
import IngestCore

/// One event of a run as the report shows it: its window, the run's summary line and every
/// file's outcome for it.
public struct ReportEvent: Sendable {
    public var name: String
    public var window: EventWindow
    /// The run's summary line for the event, in the words the run printed.
    public var summaryLine: String
    public var photos: [ReportPhoto]

    public init(name: String, window: EventWindow, summaryLine: String, photos: [ReportPhoto]) {
        self.name = name
        self.window = window
        self.summaryLine = summaryLine
        self.photos = photos
    }

    /// The photos of one outcome in the order the report lists them: outside ones nearest the
    /// window first; stored and duplicate ones by capture time; the rest by name.
    public func photos(_ status: FileStatus) -> [ReportPhoto] {
        let chosen = self.photos.filter { $0.status == status }
        switch status {
        case .outside:
            return chosen.sorted { ($0.outsideBy ?? .infinity, $0.path) < ($1.outsideBy ?? .infinity, $1.path) }
        case .uploaded, .duplicate:
            return chosen.sorted {
                ($0.capture?.instant ?? .distantFuture, $0.path) < ($1.capture?.instant ?? .distantFuture, $1.path)
            }
        case .undated, .failed, .pending, .skipped:
            return chosen.sorted { $0.path < $1.path }
        }
    }
}
