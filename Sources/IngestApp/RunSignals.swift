import IngestPipeline

/// What stops a run: Ctrl-C and SIGTERM (the user's), `--max-duration`'s deadline, and for a
/// watch SIGHUP or a change in the server's events, which start it again.
struct RunSignals {
    var stop: StopRequest
    var restart: WatchRestart
    /// Whether the deadline passed, once the run has ended (nil without `--max-duration`).
    var deadline: Task<Bool, Never>?
}
