import IngestCore

/// The exit statuses `run --help` promises, and which error ends in which.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// Some files failed in this run (the others are done), or the report could not be written.
    public static let someFailed: Int32 = 1
    /// A usage or configuration error (ArgumentParser's own would be 64).
    public static let usage: Int32 = 2
    /// The server could not be used: it answered nothing, not as the API says, or refused the token.
    public static let serverUnusable: Int32 = 3
    /// `verify`: the destination does not hold everything the catalog says it was given (missing
    /// from the server, damaged or gone in the archive); the catalog marks them for the next run.
    public static let notWhole: Int32 = 4
    /// `run` stopped at its `--max-duration`: the files in flight finished, the rest is left for the
    /// next run, which goes on where this one stopped.
    public static let deadline: Int32 = 5
    /// A folder given to walk yielded no file while the catalog knows files under it (an
    /// unmounted share), and nothing else went wrong: not a success (`--allow-empty` makes it one).
    public static let emptySource: Int32 = 6
    /// Another run holds the catalog or the archive (`--no-wait`): EX_TEMPFAIL, try again later.
    public static let busy: Int32 = 75
    /// Ctrl-C, before the run began or during it.
    public static let interrupted: Int32 = 130

    /// The exit status for an error that stopped the run, by what kind of error it is.
    public static func of(_ error: IngestError) -> Int32 {
        switch error.code {
        // Before any file: a failed request can only be the server's events or hash sets.
        case .serverUnreachable, .serverUnusable, .tokenRefused, .uploadFailed, .uploadRejected:
            self.serverUnusable
        case .busy: self.busy
        case .stopped: self.interrupted
        // The catalog holds the run; only its page is missing.
        case .reportUnwritable: self.someFailed
        default: self.usage
        }
    }
}
