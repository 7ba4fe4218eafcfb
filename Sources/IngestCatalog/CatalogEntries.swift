/// What earlier runs recorded for a list of paths in a list of events, for one destination: each
/// path's entry per event, by the positions of both in the lists asked about.
public struct CatalogEntries: Sendable {
    public let events: Int
    private var entries: [CatalogEntry?]

    init(paths: Int, events: Int) {
        self.events = events
        self.entries = Array(repeating: nil, count: paths * events)
    }

    /// The entry of the path at `path` in the event at `event`; nil when no run recorded one.
    public subscript(path: Int, event: Int) -> CatalogEntry? {
        get { self.entries[path * self.events + event] }
        set { self.entries[path * self.events + event] = newValue }
    }

    /// How many entries were found, over all paths and events.
    public var found: Int { self.entries.count { $0 != nil } }
}
