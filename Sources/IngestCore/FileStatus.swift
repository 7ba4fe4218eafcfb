/// How one file ended in a run. Every file a run sees ends with exactly one of these.
public enum FileStatus: String, Sendable, Codable, CaseIterable, Comparable {
    /// Accepted by the destination (stored in the archive, or uploaded to the server).
    case uploaded
    /// The destination already holds these bytes for the event (or the run met them before).
    case duplicate
    /// Taken outside the event's window.
    case outside
    /// Could not be ingested; retried by the next run.
    case failed
    /// Not a supported photo, or done by an earlier run and unchanged since.
    case skipped

    /// Whether a later run over the unchanged file has nothing left to do.
    public var isFinal: Bool { self != .failed }

    public static func < (lhs: FileStatus, rhs: FileStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
