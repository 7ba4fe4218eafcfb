/// How one file ended in a run. Every file a run sees ends with exactly one of these.
public enum FileStatus: String, Sendable, Codable, CaseIterable, Comparable {
    /// Accepted by the destination (stored in the archive, or uploaded to the server): said
    /// `stored` of the archive and `uploaded` of a server (``name(atArchive:)``).
    case uploaded
    /// The destination already holds these bytes for the event (or the run met them before).
    case duplicate
    /// Taken outside the event's window.
    case outside
    /// No time strong enough to place it against the event's window: only its modification time
    /// (which on a NAS or in an export is the copy time), or a day from its name that the window
    /// holds only part of. Never put into a window by a guess (`--undated mtime` does).
    case undated
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

    /// The status in its destination's words: `stored` for a file the archive accepted,
    /// `uploaded` for one a server accepted; the others read the same at both.
    public func name(atArchive: Bool) -> String {
        self == .uploaded && atArchive ? "stored" : self.rawValue
    }

    /// The status `name` says, in either destination's words.
    public init?(name: String) {
        self.init(rawValue: name == "stored" ? "uploaded" : name)
    }

    /// Reads either destination's word (a report of the archive says `stored`).
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let status = FileStatus(name: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(name)' is no file status"))
        }
        self = status
    }

    public static func < (lhs: FileStatus, rhs: FileStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
