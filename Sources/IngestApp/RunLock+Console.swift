import IngestCore

extension RunLock {
    /// Takes the lock at `path` as `run`, `watch` and `verify` do: waiting for its holder while
    /// telling the user whom it waits for, or refusing at once (`.busy`) when `wait` is false.
    static func taken(
        _ path: String, what: String, shared: Bool = false, wait: Bool, console: Console
    ) async throws(IngestError) -> RunLock {
        try await RunLock(path: path, what: what, shared: shared, wait: wait) { holder in
            console.status("Waiting for \(holder) to finish with \(what) (--no-wait to stop instead)…", always: true)
        }
    }
}
