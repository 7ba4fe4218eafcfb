/// One run of one event, as the catalog remembers it.
public struct RunRecord: Sendable, Equatable {
    public var id: Int64
    /// The id of the first run of the invocation: a run over several events has one run per event.
    public var invocation: Int64
    public var startedAt: String
    public var finishedAt: String?
    public var destination: String
    public var event: String
    public var eventName: String
    /// The run's `--json` summary for the event, once it finished.
    public var summary: String?
    /// The run's part of a sharded import (`3/8`); nil for a whole one, and for runs older than
    /// the catalog's record of it.
    public var shard: String?
    /// What the run found of its cameras' clocks, a line each.
    public var clockNotes: [String] = []
}
