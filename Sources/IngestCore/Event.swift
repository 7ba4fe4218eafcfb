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

    /// The window as the clocks of `zone` read it, `2025-09-27T14:00:00 to 2025-09-27T22:00:00 in
    /// America/Los_Angeles`, beside the UTC one wherever a window is shown: photos are read in
    /// that zone. Nil for UTC, or a window open at both ends.
    public func wallClocks(in zone: TimeZone) -> String? {
        guard zone.secondsFromGMT() != 0 || zone.nextDaylightSavingTimeTransition != nil,
            self.start != nil || self.end != nil
        else { return nil }
        func wall(_ date: Date?) -> String {
            date.map { LocalDateTime($0, offsetSeconds: zone.secondsFromGMT(for: $0)).description } ?? "open"
        }
        return "\(wall(self.start)) to \(wall(self.end)) in \(zone.name)"
    }

    /// The window its ``description`` wrote; nil for other text.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        func end(_ part: String) -> Date?? { part == ".." ? .some(nil) : RFC3339.parse(part).map { .some($0) } }
        guard let start = end(parts[0]), let finish = end(parts[1]) else { return nil }
        self.init(start: start, end: finish)
    }

    /// `start/end` in RFC 3339 (`..` for an open end): how the catalog remembers what a
    /// file was judged against, so that a changed window judges it again.
    public var description: String {
        (self.start.map(RFC3339.format) ?? "..") + "/" + (self.end.map(RFC3339.format) ?? "..")
    }
}
