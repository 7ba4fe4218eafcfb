import ArgumentParser
import Configuration
import IngestApp

/// The options of `run` as given on the command line, shared with `config show`. Each may come
/// from the environment (`PHOTOINGEST_JOBS`) or the config file (`jobs: 4`) too; a flag can only
/// turn a switch on, so a switch set in the file is turned off there or in the environment.
struct RunOptions: ParsableArguments {
    @Option(help: .setting("archive"))
    var archive: String?

    @Option(help: .setting("event"))
    var event: [String] = []

    @Option(help: .setting("from"))
    var from: String?

    @Option(help: .setting("until"))
    var until: String?

    @Option(help: .setting("events"))
    var events: String?

    @Option(parsing: .unconditional, help: .setting("near-edge"))
    var nearEdge: Int?

    @Option(help: .setting("shard"))
    var shard: String?

    @Option(help: .setting("shard-plan"))
    var shardPlan: String?

    @Option(parsing: .unconditional, help: .setting("jobs"))
    var jobs: Int?

    @Option(help: .setting("catalog"))
    var catalog: String?

    // Unconditional: a western offset (-07:00) is the value, not another option.
    @Option(name: [.customLong("timezone"), .customLong("tz")], parsing: .unconditional, help: .setting("timezone"))
    var timezone: String?

    @Option(parsing: .unconditionalSingleValue, help: .setting("clock-offset"))
    var clockOffset: [String] = []

    @Option(help: .setting("clock-reference"))
    var clockReference: [String] = []

    @Option(help: .setting("zone-data"))
    var zoneData: String?

    @Option(parsing: .unconditional, help: .setting("max-pixels"))
    var maxPixels: Int?

    @Flag(help: .setting("fast-thumbnails"))
    var fastThumbnails = false

    @Flag(help: .setting("retry-failed"))
    var retryFailed = false

    @Flag(help: .setting("no-wait"))
    var noWait = false

    @Flag(help: .setting("include-hidden"))
    var includeHidden = false

    @Flag(help: .setting("include-trashed"))
    var includeTrashed = false

    @Option(help: .setting("exclude"))
    var exclude: [String] = []

    @Option(help: .setting("include"))
    var include: [String] = []

    @Flag(help: .setting("no-default-excludes"))
    var noDefaultExcludes = false

    @Option(help: .setting("undated"))
    var undated: String?

    @Flag(help: .setting("no-name-dates"))
    var noNameDates = false

    @Flag(help: .setting("dry-run"))
    var dryRun = false

    @Option(help: .setting("report"))
    var report: String?

    @Option(help: .setting("html"))
    var html: String?

    @Flag(help: .setting("json"))
    var json = false

    @Flag(help: .setting("quiet"))
    var quiet = false

    @Option(help: .setting("log-format"))
    var logFormat: String?

    @Option(help: .setting("log-level"))
    var logLevel: String?

    @Option(help: .setting("stats"))
    var stats: String?

    @Option(help: .setting("metrics-file"))
    var metricsFile: String?
}
