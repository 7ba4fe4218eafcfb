import Foundation
import IngestCore
import IngestDating
import IngestDiscovery
import IngestHashing
import IngestImaging

/// Everything a run decides by, gathered from the command line.
public struct RunConfiguration: Sendable {
    public var paths: [String]
    /// Every event of the run; each file is read once and matched against all of them.
    public var events: [Event]
    public var includeHidden: Bool
    /// Names never ingested: a NAS's thumbnails, recycle bins, `--exclude` globs.
    public var exclusions = ExclusionRules()
    /// Whether a file with no date of its own is dated by its name (`--no-name-dates` turns it off).
    public var readsNameDates = true
    /// What becomes of a file dated only by its modification time (`--undated`).
    public var undated = UndatedPolicy.open
    /// Decide everything, write and upload nothing.
    public var dryRun: Bool
    public var limits: Limits
    /// The zone for EXIF times that carry no offset, where the GPS position gives none.
    public var timeZone: TimeZone
    /// Whether ``timeZone`` is this machine's rather than one the user gave: a guess.
    public var zoneIsGuessed = true
    /// The camera clocks to correct (`--clock-offset`).
    public var clockCorrections = ClockCorrections()
    /// The zone boundaries that date photos by their GPS position; nil leaves positions unused.
    public var zones: (any ZoneMap)?
    public var thumbnailer: Thumbnailer
    /// Folders the walk never enters (the archive, the catalog's folder).
    public var excludedPaths: [String]
    /// Photos outside the window by less than this are listed at the end, with those inside
    /// only thanks to an assumed zone: where a wrong zone bites.
    public var nearEdgeMargin: TimeInterval
    /// This process's part of a sharded import, if it is one.
    public var shard: Shard?
    /// Whether a photo a Google Takeout JSON says was in the bin is taken (`--include-trashed`).
    public var includeTrashed = false
    /// Try again the files an earlier run found broken, even though their bytes have not changed.
    public var retryFailed: Bool
    /// For `watch`: after the walk, the folders are followed and files that arrive are ingested.
    public var watch: WatchFeed?

    /// The capture-time rules of this run: its zone, the zone boundaries, whether names date files.
    public var resolver: CaptureTimeResolver {
        var resolver = CaptureTimeResolver(assumedZone: self.timeZone, zones: self.zones)
        resolver.readsNames = self.readsNameDates
        return resolver
    }

    /// The walk over this run's paths, by its rules, finding this shard's files.
    public var discovery: Discovery {
        var discovery = Discovery(
            roots: self.paths, includeHidden: self.includeHidden, rules: self.exclusions,
            excluding: self.excludedPaths, batchSize: self.limits.discoveryBatchSize, shard: self.shard)
        discovery.includeTrashed = self.includeTrashed
        return discovery
    }

    public init(
        paths: [String], events: [Event], includeHidden: Bool = false, dryRun: Bool = false, limits: Limits,
        timeZone: TimeZone, zones: (any ZoneMap)? = nil, thumbnailer: Thumbnailer = Thumbnailer(),
        excludedPaths: [String] = [],
        nearEdgeMargin: TimeInterval = 3_600, shard: Shard? = nil, retryFailed: Bool = false
    ) {
        self.paths = paths
        self.events = events
        self.includeHidden = includeHidden
        self.dryRun = dryRun
        self.limits = limits
        self.timeZone = timeZone
        self.zones = zones
        self.thumbnailer = thumbnailer
        self.excludedPaths = excludedPaths
        self.nearEdgeMargin = nearEdgeMargin
        self.shard = shard
        self.retryFailed = retryFailed
    }
}
