import Foundation

/// A PhotoShare event, or the archive's named collection: photos taken inside its window belong to it.
public struct Event: Sendable, Hashable {
    /// The server's id; in archive mode the event's name.
    public var id: String
    public var name: String
    public var window: EventWindow

    public init(id: String, name: String, window: EventWindow = EventWindow()) {
        self.id = id
        self.name = name
        self.window = window
    }
}

/// A span of UTC instants, inclusive at both ends; either end may be open.
public struct EventWindow: Sendable, Hashable, CustomStringConvertible {
    public var start: Date?
    public var end: Date?

    public init(start: Date? = nil, end: Date? = nil) {
        self.start = start
        self.end = end
    }

    public func contains(_ instant: Date) -> Bool {
        self.distance(to: instant) == 0
    }

    /// Seconds from the window to `instant`: 0 inside, positive outside.
    public func distance(to instant: Date) -> TimeInterval {
        if let start = self.start, instant < start { return start.timeIntervalSince(instant) }
        if let end = self.end, instant > end { return instant.timeIntervalSince(end) }
        return 0
    }

    /// `start/end` in RFC 3339 (`..` for an open end): how the catalog remembers what a
    /// file was judged against, so that a changed window judges it again.
    public var description: String {
        (self.start.map(RFC3339.format) ?? "..") + "/" + (self.end.map(RFC3339.format) ?? "..")
    }
}
