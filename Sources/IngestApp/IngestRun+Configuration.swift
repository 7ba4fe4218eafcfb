import Foundation
import IngestCore
import IngestDiscovery
import IngestHashing
import IngestImaging
import IngestPipeline

extension IngestRun {
    /// The pipeline's configuration, from the settings: the paths and events, what the times
    /// mean, the walk's rules, and the shard (its plan drawn if asked). A watch adds its feed.
    func configuration(
        dating: RunDating, target: RunTarget, limits: Limits, signals: RunSignals, console: Console
    ) throws -> RunConfiguration {
        let catalogPath = Discovery.absolute(self.settings.catalog)
        // One pass over the files for every event: each file is read, hashed and dated once.
        var configuration = RunConfiguration(
            paths: self.distinctPaths(console: console), events: target.events,
            includeHidden: self.settings.includeHidden, dryRun: self.settings.dryRun, limits: limits,
            timeZone: dating.zone, zones: dating.zones,
            thumbnailer: Thumbnailer(
                maxPixels: self.settings.maxPixels,
                jpegShrink: self.settings.fastThumbnails ? .toTheTarget : .twiceTheTarget),
            excludedPaths: Self.catalogFiles(catalogPath) + target.excludedPaths,
            nearEdgeMargin: TimeInterval(self.settings.nearEdge * 60), shard: self.settings.shard,
            retryFailed: self.settings.retryFailed)
        configuration.zoneIsGuessed = self.settings.timezone == nil
        configuration.exclusions = ExclusionRules(
            excludes: self.settings.exclude, includes: self.settings.include,
            useDefaults: !self.settings.noDefaultExcludes)
        configuration.readsNameDates = !self.settings.noNameDates
        configuration.includeTrashed = self.settings.includeTrashed
        configuration.undated = self.settings.undated
        configuration.clockCorrections = dating.clocks
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
        var watch = WatchFeed(settle: .seconds(self.settings.settle), latency: latency) { line in
            // A notice comes while files are in flight: it takes the progress line's place.
            progress.printing {
                console.status(line, always: line.hasPrefix("warning: ") || line.hasPrefix("error: "))
            }
        }
        watch.refreshInterval = .seconds(self.settings.refresh)
        watch.polling = self.settings.poll ? .everywhere : self.settings.noPoll ? .never : .whereBlind
        watch.pollInterval = .seconds(self.settings.pollInterval)
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
