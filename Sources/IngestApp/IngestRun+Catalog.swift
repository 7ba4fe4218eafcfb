import IngestCatalog
import IngestCore
import IngestDiscovery
import Logging

extension IngestRun {
    /// Where the run's words go: standard error (or JSON log lines with `--log-format json`),
    /// the summary to standard output unless `--json` or a report on it takes that.
    func console(log: Logger) -> Console {
        Console(
            quiet: self.settings.quiet, stdoutTaken: self.settings.json || self.settings.report == "-",
            log: self.settings.logFormat == .json ? log : nil)
    }

    /// The catalog and the lock that makes this run its only one. A dry run writes nothing, so it
    /// creates no catalog and takes no lock; an existing one still says what is done.
    func openCatalog(console: Console) async throws -> (Catalog?, RunLock?) {
        let path = Discovery.absolute(self.settings.catalog)
        if self.settings.run.dryRun { return (try Catalog(readingAt: path), nil) }
        let catalog = try Catalog(path: path)
        // One run at a time per catalog: a second one would redo the same work and cross its counts.
        let lock = try await self.lock(RunLock.path(guarding: path), what: "the catalog \(path)", console: console)
        return (catalog, lock)
    }
}
