import ArgumentParser
import Configuration

/// The options of `run` as given on the command line, shared with `config show`. Each may come
/// from the environment (`PHOTOINGEST_JOBS`) or the config file (`jobs: 4`) too; a flag can only
/// turn a switch on, so a switch set in the file is turned off there or in the environment.
struct RunOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The local archive to store into (default: $XDG_DATA_HOME/photoingest/archive).", valueName: "dir"))
    var archive: String?

    @Option(
        help: ArgumentHelp(
            "In the archive: the event's name (default \"default\"). With a server: an event id (repeatable; default: every event the server lists).",
            valueName: "event"))
    var event: [String] = []

    @Option(
        help: ArgumentHelp(
            "Start of the event's window (RFC 3339; a time with no zone is UTC; a date alone, its first instant in UTC). Photos before it are outside.",
            valueName: "time"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "End of the event's window, included (RFC 3339; no zone means UTC; a date alone, its last instant in UTC, so the whole day is in).",
            valueName: "time"))
    var until: String?

    @Option(
        name: .customLong("events"),
        help: ArgumentHelp(
            "In the archive: several events from a file, JSON ([{\"name\", \"start\", \"end\"}, …]) or CSV (header name,start,end); all in one pass.",
            valueName: "file"))
    var eventsFile: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "List photos outside the window by less than this, and those inside only thanks to an assumed zone (default 60).",
            valueName: "minutes"))
    var nearEdge: Int?

    @Option(
        help: ArgumentHelp(
            "Take only shard K of N (0-based): the files whose path, relative to its root, hashes into it. Give each shard its own --catalog.",
            valueName: "K/N"))
    var shard: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Photos decoded at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "The catalog that makes re-runs resumable (default: $XDG_STATE_HOME/photoingest/catalog.sqlite).",
            valueName: "file"))
    var catalog: String?

    @Option(
        name: [.customLong("timezone"), .customLong("tz")],
        help: ArgumentHelp(
            "Zone for EXIF times that carry no offset: an IANA name (Europe/Berlin, UTC) or an offset (+02:00); default this machine's.",
            valueName: "zone"))
    var timezone: String?

    @Option(
        help: ArgumentHelp(
            "Time-zone boundaries that date photos by their GPS position (default: $XDG_DATA_HOME/photoingest/zones.sqlite, made by scripts/zone-data, or the package's).",
            valueName: "file"))
    var zoneData: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse images with more pixels than this, before decoding (default 100000000).", valueName: "n"))
    var maxPixels: Int?

    @Flag(
        help: ArgumentHelp(
            "Decode JPEGs at 1/8 for the thumbnails where that still gives 500 px: about 20% less CPU, thumbnails a little less close to the full image.",
            discussion:
                "SSIM against the full decode 0.986 instead of 0.996 on real camera photos (docs/performance.md)."))
    var fastThumbnails = false

    @Flag(
        help: "Try again the files an earlier run found broken (they do not decode), even though they have not changed."
    )
    var retryFailed = false

    @Flag(
        help: "When another run is using the catalog or the archive, stop at once (exit status 75) instead of waiting.")
    var noWait = false

    @Flag(help: "Also ingest hidden files and folders (names starting with a dot).")
    var includeHidden = false

    @Flag(help: "Decide everything, write and upload nothing (neither archive nor catalog).")
    var dryRun = false

    @Option(help: ArgumentHelp("Write one JSON line per file to this file (- for standard output).", valueName: "file"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Write the run report as one HTML page to this file: per event a timeline and contact sheets by outcome. `photoingest report` draws it again later from the catalog.",
            valueName: "file"))
    var html: String?

    @Flag(help: "Print one JSON summary object on standard output at the end.")
    var json = false

    @Flag(help: "No progress line and no summary text; errors are still printed.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Log lines on standard error: text (swift-log's) or json (one object per line) (default: text).",
            valueName: "text|json"))
    var logFormat: String?

    @Option(
        help: ArgumentHelp(
            "Least level logged: trace, debug, info, notice, warning, error or critical (default: info when standard error is not a terminal, else warning).",
            valueName: "level"))
    var logLevel: String?

    @Option(
        help: ArgumentHelp(
            "Log a status line this often, e.g. 30s or 5m; 0 for never (default: 30s when standard error is not a terminal, else 0).",
            valueName: "interval"))
    var stats: String?

    @Option(
        help: ArgumentHelp(
            "At the end, write the run's metrics here in Prometheus text format (for node_exporter's textfile collector), replacing the file atomically.",
            valueName: "file"))
    var metricsFile: String?

    /// The settings given here, by key, for the configuration's first provider.
    var given: [String: ConfigContent] {
        var given: [String: ConfigContent] = [:]
        given["archive"] = self.archive.map { .string($0) }
        if !self.event.isEmpty { given["event"] = .stringArray(self.event) }
        given["from"] = self.from.map { .string($0) }
        given["until"] = self.until.map { .string($0) }
        given["events"] = self.eventsFile.map { .string($0) }
        given["near-edge"] = self.nearEdge.map { .int($0) }
        given["shard"] = self.shard.map { .string($0) }
        given["jobs"] = self.jobs.map { .int($0) }
        given["catalog"] = self.catalog.map { .string($0) }
        given["timezone"] = self.timezone.map { .string($0) }
        given["zone-data"] = self.zoneData.map { .string($0) }
        given["max-pixels"] = self.maxPixels.map { .int($0) }
        given["report"] = self.report.map { .string($0) }
        given["html"] = self.html.map { .string($0) }
        given["log-format"] = self.logFormat.map { .string($0) }
        given["log-level"] = self.logLevel.map { .string($0) }
        given["stats"] = self.stats.map { .string($0) }
        given["metrics-file"] = self.metricsFile.map { .string($0) }
        for (key, isOn) in [
            ("retry-failed", self.retryFailed), ("no-wait", self.noWait), ("include-hidden", self.includeHidden),
            ("dry-run", self.dryRun), ("json", self.json), ("quiet", self.quiet),
            ("fast-thumbnails", self.fastThumbnails),
        ] where isOn {
            given[key] = .bool(true)
        }
        return given
    }
}
