/// How one file ended in a run. Every file a run sees ends with exactly one of these.
public enum FileStatus: String, Sendable, Codable, CaseIterable, Comparable {
    /// Accepted by the destination (stored in the archive, or uploaded to the server).
    case uploaded
    /// The destination already holds these bytes for the event (or the run met them before).
    case duplicate
    /// Taken outside the event's window.
    case outside
    /// Could not be ingested; retried by the next run, unless the fault lies in the file's own
    /// bytes (``IngestError/Code/isInTheFile``) and the file has not changed since.
    case failed
    /// Not finished because the run stopped (Ctrl-C, or a server that stopped answering) while it
    /// was in flight: not a failure of the file, and the next run does it.
    case pending
    /// Not a supported photo, or done by an earlier run and unchanged since.
    case skipped

    /// Whether the file's capture time decided this outcome (it was placed against the window).
    public var isPlaced: Bool { self == .uploaded || self == .duplicate || self == .outside }

    /// Whether a later run over the unchanged file has nothing left to do.
    public var isFinal: Bool { self != .failed && self != .pending }

    public static func < (lhs: FileStatus, rhs: FileStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
