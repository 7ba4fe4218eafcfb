import Foundation
import IngestCore
import IngestDiscovery
import IngestHashing
import IngestPipeline

extension IngestRun {
    /// The pipeline's configuration: what the options set (``Settings/run``), and what the run
    /// found out: the paths and events, the limits, what the times mean, the folders never
    /// walked, and the shard's plan drawn if asked. A watch adds its feed.
    func configuration(
        dating: RunDating, target: RunTarget, limits: Limits, signals: RunSignals, console: Console
    ) throws -> RunConfiguration {
        // One pass over the files for every event: each file is read, hashed and dated once.
        var configuration = self.settings.run
        configuration.paths = self.distinctPaths(console: console)
        configuration.events = target.events
        configuration.limits = limits
        configuration.timeZone = dating.zone
        configuration.zoneIsGuessed = self.settings.timezone == nil
        configuration.zones = dating.zones
        configuration.clockCorrections = dating.clocks
        configuration.excludedPaths =
            Self.catalogFiles(Discovery.absolute(self.settings.catalog)) + target.excludedPaths
        if let path = self.settings.shardPlan, let count = configuration.shard?.count {
            let discovery = configuration.discovery
            let stop = signals.stop
            let (plan, drawn) = try ShardPlanFile(path: path).plan(count: count) {
                console.status("Drawing the shard plan: every shard's files looked at once…")
                let sizes = discovery.unitSizes(shouldStop: { stop.isRequested })
                return stop.isRequested ? nil : sizes
            }
            configuration.shard?.placed = plan.placed
            console.status(ShardPlanFile.line(plan, path: path, drawn: drawn))
        }
        return configuration
    }

    /// A watch's feed: its settle time, its notices (which take the progress line's place), its
    /// refreshes and polling; a change in the server's events starts the run again.
    func watchFeed(
        target: RunTarget, signals: RunSignals, latency: WatchLatency, progress: ProgressLine, console: Console
    ) -> WatchFeed {
        var watch = WatchFeed(self.settings.watch, latency: latency) { line in
            // A notice comes while files are in flight: it takes the progress line's place.
            progress.printing {
                console.status(line, always: line.hasPrefix("warning: ") || line.hasPrefix("error: "))
            }
        }
        if let list = target.listEvents {
            let (events, stop, restart) = (target.events, signals.stop, signals.restart)
            watch.refreshEvents = { @Sendable in
                // Events are the run's shape (its reports, its catalog runs): a change starts it again.
                guard let listed = try? await list(), let change = WatchRestart.change(from: events, to: listed)
                else { return }
                restart.request(.eventsChanged(change))
                stop.request(byUser: false)
            }
        }
        return watch
    }
}
