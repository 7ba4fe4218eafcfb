import Configuration
import Foundation
import IngestCore
import IngestDating
import IngestDiscovery
import IngestHashing
import IngestPipeline
import IngestTransport
import Logging

/// Every setting of a run, merged by swift-configuration with one precedence: flags, then
/// `PHOTOINGEST_<OPTION>` variables, then the config file, then the built-in default.
public struct Settings {
    public init() {}

    public var paths: [String] = []
    public var archive = Defaults.archive
    public var catalog = Defaults.catalog
    public var event: [String] = []
    /// `--from`, `--until`: the archive event's window, read once.
    public var from: WindowBound?
    public var until: WindowBound?
    public var eventsFile: String?
    /// `--shard-plan`: the file of the plan that draws the shards by size.
    public var shardPlan: String?
    public var jobs = Defaults.cores
    /// `--timezone`: the zone times without one are read in; nil for this machine's (a guess).
    public var timezone: TimeZone?
    /// `--clock-offset`: what to add to a camera's clock, by serial, model or folder.
    public var clockOffsets: [ClockOffset] = []
    /// `--clock-reference`: photos taken at a known true time, each with that time.
    public var clockReferences: [(path: String, time: Date)] = []
    public var zoneData: String?
    public var noWait = false
    /// An empty folder given to walk is no failure, even where the catalog knows files under it.
    public var allowEmpty = false
    /// `--max-duration`, in seconds: no new file starts after it.
    public var maxDuration: Int?
    public var report: String?
    public var html: String?
    public var json = false
    public var quiet = false
    public var logFormat = LogFormat.text
    public var logLevel = Logger.Level.info
    /// Seconds between status lines in the log; 0 for none.
    public var stats = 0
    public var metricsFile: String?
    /// The pipeline's configuration as the options set it (the walk's rules, the thumbnails,
    /// how times are placed, the shard, a dry run); each option's entry writes its field, and
    /// the default is the field's own. The run fills in what no option gives: its paths,
    /// events, limits, zones and clocks (``IngestRun/configuration(dating:target:limits:signals:console:)``).
    public var run = RunConfiguration(paths: [], events: [], limits: Limits(jobs: 1), timeZone: .gmt)
    /// `watch`'s settle time, refresh and polling, as the options set them.
    public var watch = WatchFeed.Schedule()
    /// How to reach the server, as the options set it.
    public var connection = ServerSettings()

    public enum LogFormat: String, CaseIterable { case text, json }

    /// One line per setting, for `config show`: its key, value (secrets masked) and source.
    public var shown: [(key: String, value: String, source: String)] = []
    /// Where each setting was given, as messages about its value name it.
    public var origins = SettingOrigins()
    /// The config file read, if any.
    public var configFile: String?
    /// What the user should hear about before the run: variables that look like settings but are
    /// none (`PHOTOINGEST_NEAREDGE`), each with the setting it most likely meant.
    public var warnings: [String] = []
    /// Switches of one field given on together (`--poll` and `--no-poll`): a run refuses them;
    /// `config show` still shows where each came from.
    public var contradictions: [String] = []

    /// The settings of this run, from `given` (the flags), the environment and the config file,
    /// each read and checked as ``RunSetting/all`` declares it.
    ///
    /// - Throws: ``UsageError`` for a value a setting's check refuses, a key the file does not
    ///   know, a value of the wrong type (naming where it came from), or a config file that is
    ///   missing or not YAML or TOML.
    public static func resolve(
        given: [String: ConfigContent], configPath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Settings {
        let file = try ConfigFile.locate(explicit: configPath, environment: environment)
        var providers: [any ConfigProvider] = [
            InMemoryProvider(
                name: Source.commandLine,
                values: Dictionary(
                    uniqueKeysWithValues: given.map {
                        (AbsoluteConfigKey([$0.key]), ConfigValue($0.value, isSecret: false))
                    })),
            EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .specific(["PHOTOINGEST_TOKEN", "PHOTOINGEST_UPLOAD_TOKEN"])
            )
            .prefixKeys(with: "photoingest"),
        ]
        if let file { providers.append(try await file.provider()) }
        let sources = SettingSources()
        var resolution = SettingResolution(
            reader: ConfigReader(providers: providers, accessReporter: sources), sources: sources, file: file)
        var settings = Settings()
        for setting in RunSetting.all {
            try setting.resolve(&resolution, &settings)
        }
        // A token given where it outranks the token command (a flag over the file) is the one used.
        if settings.connection.token != nil, resolution.rank("token") < resolution.rank("token-command") {
            settings.connection.tokenCommand = nil
        }
        try file?.checkKeys(known: resolution.keys)
        settings.shown = resolution.shown
        settings.origins = resolution.origins
        settings.connection.origins = resolution.origins
        settings.configFile = file?.path
        settings.warnings = Self.unknownVariables(in: environment, known: resolution.keys)
        return settings
    }

    /// The `PHOTOINGEST_*` variables no setting reads, each with the one it most likely meant: a
    /// misspelt variable would otherwise be ignored without a word.
    static func unknownVariables(in environment: [String: String], known keys: Set<String>) -> [String] {
        let variables = Set(keys.map(ConfigFile.environmentName(of:))).union([ConfigFile.pathVariable])
        return environment.keys.filter { $0.hasPrefix("PHOTOINGEST_") && !variables.contains($0) }.sorted().map {
            name in
            let hint = EditDistance.nearest(to: name, among: variables, limit: 3).map { " (did you mean \($0)?)" }
            return "\(name) is no setting's variable\(hint ?? ""); it was ignored"
        }
    }

    /// `config show`'s text: the config file read, then one line per setting with its value
    /// (secrets masked) and its source.
    public var shownText: String {
        var lines = [
            "# config file: " + (self.configFile ?? "none (no \(ConfigFile.defaultPaths.joined(separator: " or ")))")
        ]
        lines += (self.warnings + self.contradictions).map { "# warning: " + $0 }
        let width = self.shown.map { $0.key.count + $0.value.count }.max() ?? 0
        for line in self.shown {
            let text = "\(line.key): \(line.value)"
            lines.append(text + String(repeating: " ", count: max(1, width + 4 - text.count)) + "# " + line.source)
        }
        return lines.joined(separator: "\n")
    }

    /// Whether standard error is not a terminal: the defaults of the log level and the status
    /// interval differ there.
    static var offTerminal: Bool { isatty(STDERR_FILENO) == 0 }

    /// `30s`, `5m`, `1h`, or a number of seconds; nil for anything else.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600]
        if let unit = text.last, let scale = units[unit], let count = Int(text.dropLast()), count >= 0 {
            return count * scale
        }
        guard let count = Int(text), count >= 0 else { return nil }
        return count
    }

    /// The names shown for swift-configuration's providers.
    enum Source {
        static let commandLine = "command line"
    }
}
