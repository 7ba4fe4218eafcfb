import Foundation
import IngestCore

/// A bound of the archive event's window (`--from`, `--until`), read once: the instant, and the
/// text as given, which says whether it named its offset (a bound without one is UTC, and the run
/// says so when `--timezone` would read it otherwise).
public struct WindowBound: Sendable, Equatable {
    public var text: String
    public var instant: Date

    /// - Throws: ``UsageError`` naming `origin` for text that is neither an RFC 3339 time nor a
    ///   date. A date alone is its first instant in UTC, or its last with `isEnd`.
    public init(_ text: String, isEnd: Bool, origin: String) throws(UsageError) {
        guard let instant = RFC3339.windowBound(text, isEnd: isEnd) else {
            throw UsageError(
                "\(origin) '\(text)' is not an RFC 3339 time or a date, e.g. 2025-09-27T21:00:00Z, 2025-09-27T14:00:00-07:00 or 2025-09-27."
            )
        }
        self.text = text
        self.instant = instant
    }

    /// Whether the text gave its offset (or `Z`): else it was read as UTC.
    public var namesItsOffset: Bool { RFC3339.namesItsOffset(self.text) }
}
