import Foundation
import IngestCore
import IngestDating
import IngestDiscovery
import IngestHashing
import IngestPipeline
import Logging

extension RunSetting {
    /// Every setting of `run`, in the order `config show` lists them.
    public static let all: [RunSetting] = Self.run + Self.output + Self.server + Self.watch

    /// What to ingest, into what, and how.
    static let run: [RunSetting] = [
        .list(
            "paths", \.paths, valueName: "paths",
            help:
                "Files, folders and zip files to ingest (folders and zips are walked recursively; zips are read in place, never unpacked)."
        ),
        .parsed(
            "archive", \.archive, valueName: "dir",
            help: "The local archive to store into (default: $XDG_DATA_HOME/photoingest/archive).",
            default: { Defaults.archive }, parse: { $0 }),
        .parsed(
            "catalog", \.catalog, valueName: "file",
            help: "The catalog that makes re-runs resumable (default: $XDG_STATE_HOME/photoingest/catalog.sqlite).",
            default: { Defaults.catalog }, parse: { $0 }),
        .list(
            "event", \.event, valueName: "event",
            help:
                "In the archive: the event's name (default \"default\"). With a server: an event id (repeatable; default: every event the server lists)."
        ),
        .optionalParsed(
            "from", \.from, valueName: "time",
            help:
                "Start of the event's window (RFC 3339; a time with no zone is UTC; a date alone, its first instant in UTC). Photos before it are outside. An empty value clears one from the file or the environment.",
            parse: { text, origin in try WindowBound(text, isEnd: false, origin: origin) }),
        .optionalParsed(
            "until", \.until, valueName: "time",
            help:
                "End of the event's window, included (RFC 3339; no zone means UTC; a date alone, its last instant in UTC, so the whole day is in).",
            parse: { text, origin in try WindowBound(text, isEnd: true, origin: origin) }),
        .text(
            "events", \.eventsFile, valueName: "file",
            help:
                "In the archive: several events from a file, JSON ([{\"name\", \"start\", \"end\"}, …]) or CSV (header name,start,end); all in one pass."
        ),
        .minutes(
            "near-edge", \.run.nearEdgeMargin,
            help:
                "List photos outside the window by less than this, and those inside that a guessed zone an hour off would put outside; 0 lists none",
            allowed: 0...Defaults.maxNearEdge, problem: "must be 0 to \(Defaults.maxNearEdge) minutes"),
        .optionalParsed(
            "shard", \.run.shard, valueName: "K/N",
            help:
                "Take only shard K of N (0-based): the files whose path, relative to its root, hashes into it. Give each shard its own --catalog.",
            parse: { text, origin in
                guard let shard = Shard(text) else {
                    throw UsageError(
                        "\(origin) '\(text)' is not K/N with 0 ≤ K < N, e.g. 0/4 (K as in JOB_COMPLETION_INDEX).")
                }
                return shard
            }),
        .text(
            "shard-plan", \.shardPlan, valueName: "file",
            help:
                "With --shard: draw the shards by size, so that each gets about the same bytes (imports with videos). The first shard writes the plan to this file, the others and every re-run read it; give all the shards the same file."
        ),
        .number(
            "jobs", \.jobs, valueName: "n", help: "Photos decoded at once (default: the number of cores).",
            allowed: 1..., problem: "must be at least 1"),
        .optionalParsed(
            "timezone", \.timezone, valueName: "zone",
            help:
                "Zone for EXIF times that carry no offset: an IANA name (Europe/Berlin, UTC) or an offset (+02:00); default this machine's.",
            parse: { text, origin in try Defaults.zone(named: text, origin: origin) }),
        .clockOffsets, .clockReferences,
        .text(
            "zone-data", \.zoneData, valueName: "file",
            help:
                "Time-zone boundaries that date photos by their GPS position (default: $XDG_DATA_HOME/photoingest/zones.sqlite, made by scripts/zone-data, or the package's)."
        ),
        .number(
            "max-pixels", \.run.thumbnailer.maxPixels, valueName: "n",
            help:
                "Refuse images with more pixels than this, before decoding (default \(Settings().run.thumbnailer.maxPixels)).",
            allowed: 1...,
            problem: "must be at least 1"),
        .choice(
            "fast-thumbnails", \.run.thumbnailer.jpegShrink, when: .toTheTarget,
            help:
                "Decode JPEGs at 1/8 for the thumbnails where that still gives 500 px: about 20% less CPU, thumbnails a little less close to the full image.",
            discussion:
                "SSIM against the full decode 0.986 instead of 0.996 on real camera photos (docs/performance.md)."),
        .flag(
            "retry-failed", \.run.retryFailed,
            help:
                "Try again the files an earlier run found broken (they do not decode), even though they have not changed."
        ),
        .flag(
            "no-wait", \.noWait,
            help:
                "When another run is using the catalog or the archive, stop at once (exit status 75) instead of waiting."
        ),
        .flag(
            "allow-empty", \.allowEmpty,
            help:
                "Take a folder given to walk that yields no file (empty, or only folders and hidden entries) as it is, even where the catalog knows files under it. Without this, such a folder (an unmounted share's mount point) is warned about and the run ends with exit status 6."
        ),
        .optionalInterval(
            "max-duration", \.maxDuration,
            help:
                "run: start no new file once the run has lasted this long (30m, 2h); the files in flight finish, the catalog commits and the summary says how many are left (exit status 5). The next run goes on where it stopped."
        ),
        .flag(
            "include-trashed", \.run.includeTrashed,
            help:
                "Also ingest the photos a Google Takeout's JSON says were in Google Photos' bin (left out by default, each said)."
        ),
        .flag(
            "include-hidden", \.run.includeHidden,
            help: "Also ingest hidden files and folders (names starting with a dot)."
        ),
        .list(
            "exclude", \.run.exclusions.excludes, valueName: "glob",
            help:
                "Never ingest entries whose name matches GLOB (a GLOB with a slash: the path below the folder given), beside the default list of NAS thumbnails, recycle bins and the like (repeatable)."
        ),
        .list(
            "include", \.run.exclusions.includes, valueName: "glob",
            help:
                "Take back names matching GLOB from every exclusion: the default list, --exclude and .photoingestignore files (repeatable)."
        ),
        .parsed(
            "undated", \.run.undated, valueName: "open|mtime|skip",
            help:
                "A file with no date of its own (not in the file, a sidecar or its name), whose modification time is only when it was copied: open stores it only in events with no window (default), mtime places it by that time, skip leaves it out.",
            default: { Settings().run.undated.rawValue },
            parse: { text in
                guard let policy = UndatedPolicy(rawValue: text) else {
                    throw UsageError("is not open, mtime or skip.")
                }
                return policy
            }),
        .choice(
            "no-name-dates", \.run.readsNameDates, when: false,
            help:
                "Do not date files by their names (PXL_20240504_131617123.jpg, IMG_20240504_151617.jpg, IMG-20240504-WA0007.jpg) when they carry no date of their own."
        ),
        .choice(
            "no-default-excludes", \.run.exclusions.useDefaults, when: false,
            help:
                "Walk into what the default list leaves out: @eaDir, #recycle, @Recycle, #snapshot, .@__thumb, @__thumb, SYNO*_THUMB_*, Thumbs.db, desktop.ini, .DS_Store, ._*, *.lrdata, .photostructure, Recently Deleted."
        ),
        .flag(
            "dry-run", \.run.dryRun,
            help:
                "Decode, thumbnail (in memory) and decide everything as a run would; write and upload nothing (neither archive nor catalog)."
        ),
    ]

    /// What the run writes about itself.
    static let output: [RunSetting] = [
        .text(
            "report", \.report, valueName: "file",
            help: "Write one JSON line per file to this file (- for standard output)."),
        .text(
            "html", \.html, valueName: "file",
            help:
                "Write the run report as one HTML page to this file: per event a timeline and contact sheets by outcome. `photoingest report` draws it again later from the catalog."
        ),
        .flag("json", \.json, help: "Print one JSON summary object on standard output at the end."),
        .flag("quiet", \.quiet, help: "No progress line and no summary text; errors are still printed."),
        .parsed(
            "log-format", \.logFormat, valueName: "text|json",
            help: "Log lines on standard error: text (swift-log's) or json (one object per line) (default: text).",
            default: { Settings.LogFormat.text.rawValue },
            parse: { text in
                guard let format = Settings.LogFormat(rawValue: text) else {
                    throw UsageError("is not text or json.")
                }
                return format
            }),
        .parsed(
            "log-level", \.logLevel, valueName: "level",
            help:
                "Least level logged: trace, debug, info, notice, warning, error or critical (default: info when standard error is not a terminal, else warning).",
            // On a terminal the progress line and the summary say what info lines would.
            default: { Settings.offTerminal ? "info" : "warning" },
            parse: { text in
                guard let level = Logger.Level(rawValue: text) else {
                    throw UsageError("is not one of trace, debug, info, notice, warning, error, critical.")
                }
                return level
            }),
        .parsed(
            "stats", \.stats, valueName: "interval",
            help:
                "Log a status line this often, e.g. 30s or 5m; 0 for never (default: 30s when standard error is not a terminal, else 0).",
            default: { Settings.offTerminal ? "30s" : "0" },
            parse: { text in
                guard let seconds = Settings.seconds(text) else {
                    throw UsageError("is not an interval such as 30s, 5m or 0.")
                }
                return seconds
            }),
        .text(
            "metrics-file", \.metricsFile, valueName: "file",
            help:
                "At the end, write the run's metrics here in Prometheus text format (for node_exporter's textfile collector), replacing the file atomically."
        ),
    ]

}

extension RunSetting {
    /// `--clock-offset SELECTOR=OFFSET`, repeatable: each checked as it is read, a folder made
    /// absolute.
    static let clockOffsets = RunSetting.parsedList(
        "clock-offset", \.clockOffsets, valueName: "selector=offset",
        help:
            "Correct a camera's clock: add OFFSET ([+-]HH:MM[:SS]) to the times of serial:<serial>, model:<model> or folder:<path> (repeatable).",
        discussion:
            "The offset moves the camera's wall time before any zone rule reads it; the file is never changed. A serial wins over a model, a model over a folder. E.g. --clock-offset 'serial:012345=-01:02:30'.",
        problem:
            "is not serial:<serial>=, model:<model>= or folder:<path>= and an offset [+-]HH:MM[:SS], e.g. serial:012345=-01:02:30."
    ) { text in
        guard var offset = ClockOffset(parsing: text) else { return nil }
        if case .folder(let folder) = offset.selector { offset.selector = .folder(Discovery.absolute(folder)) }
        return offset
    }

    /// `--clock-reference FILE=TIME`, repeatable: each checked as it is read, the file made absolute.
    static let clockReferences = RunSetting.parsedList(
        "clock-reference", \.clockReferences, valueName: "file=time",
        help:
            "The photo FILE was taken at TIME (RFC 3339): its camera's clock is corrected by the difference; two of one camera give its drift (repeatable).",
        discussion:
            "A photo of a phone's clock, or of a GPS screen, taken with the camera whose clock is off. An offset given with --clock-offset for the same camera wins.",
        problem: "is not FILE=TIME with an RFC 3339 time, e.g. IMG_0042.JPG=2025-09-27T21:55:00-07:00."
    ) { text in
        ClockReference.parse(text).map { (Discovery.absolute($0.path), $0.time) }
    }
}
