import Foundation
import IngestCore
import IngestDiscovery
import IngestPipeline
import Logging

extension IngestRun {
    /// Ingests; a watch whose run ended to start again (the server's events changed, SIGHUP)
    /// starts its next one, which costs what a re-run costs: the catalog knows what is done.
    func ingestUntilTheEnd(log: Logger, started: Date) async throws -> Int32 {
        var current = self
        // One measure of the waits for the whole watch: its closing line covers every run's files.
        let latency = WatchLatency()
        while true {
            let (status, restart) = try await current.ingest(log: log, started: started, latency: latency)
            guard let restart else { return status }
            let console = current.console(log: log)
            switch restart {
            case .eventsChanged(let change):
                console.status("The server's events changed (\(change)): starting again with them", always: true)
            case .reload:
                guard let reload = current.reload else { continue }
                do {
                    let settings = try await reload()
                    let next = IngestRun(settings: settings, watching: true, reload: reload)
                    try next.validate()
                    current = next
                    console.status("SIGHUP: the settings were read again; starting again with them", always: true)
                } catch {
                    let message = (error as? UsageError)?.message ?? "\(error)"
                    console.status(
                        "warning: SIGHUP: the settings read again cannot be used (\(message)); keeping those it had",
                        always: true)
                }
            }
        }
    }
}
