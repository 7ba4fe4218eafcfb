import ArgumentParser
import Configuration
import Foundation
import IngestTransport
import Logging

/// Every setting of a run, merged by swift-configuration with one precedence: flags, then
/// `PHOTOINGEST_<OPTION>` variables, then the config file, then the built-in default.
struct Settings {
    var paths: [String] = []
    var archive = Defaults.archive
    var catalog = Defaults.catalog
    var event: [String] = []
    var from: String?
    var until: String?
    var eventsFile: String?
    var nearEdge = 60
    var shard: String?
    var jobs = Defaults.cores
    var timezone: String?
    var zoneData: String?
    var maxPixels = 100_000_000
    var fastThumbnails = false
    var retryFailed = false
    var noWait = false
    var includeHidden = false
    var dryRun = false
    var report: String?
    var html: String?
    var json = false
    var quiet = false
    var logFormat = LogFormat.text
    var logLevel = Logger.Level.info
    /// Seconds between status lines in the log; 0 for none.
    var stats = 0
    var metricsFile: String?
    var connection = ServerSettings()

    enum LogFormat: String, CaseIterable { case text, json }

    /// One line per setting, for `config show`: its key, value (secrets masked) and source.
    var shown: [(key: String, value: String, source: String)] = []
    /// The config file read, if any.
    var configFile: String?

    /// The settings of this run, from `given` (the flags), the environment and the config file.
    ///
    /// - Throws: `ValidationError` naming the key for a key the file does not know, a value of the
    ///   wrong type (and where it came from), or a config file that is missing or
    ///   not YAML or TOML.
    static func resolve(given: [String: ConfigContent], configPath: String?) async throws -> Settings {
        let file = try ConfigFile.locate(explicit: configPath)
        var providers: [any ConfigProvider] = [
            InMemoryProvider(
                name: Source.commandLine,
                values: Dictionary(
                    uniqueKeysWithValues: given.map {
                        (AbsoluteConfigKey([$0.key]), ConfigValue($0.value, isSecret: false))
                    })),
            EnvironmentVariablesProvider(
                secretsSpecifier: .specific(["PHOTOINGEST_TOKEN", "PHOTOINGEST_UPLOAD_TOKEN"])
            )
            .prefixKeys(with: "photoingest"),
        ]
        if let file { providers.append(try await file.provider()) }
        let sources = SettingSources()
        let reader = ConfigReader(providers: providers, accessReporter: sources)
        var settings = Settings()
        var resolution = Resolution(reader: reader, sources: sources, file: file)

        settings.paths = try resolution.strings("paths", settings.paths)
        settings.archive = try resolution.string("archive", settings.archive)
        settings.catalog = try resolution.string("catalog", settings.catalog)
        settings.event = try resolution.strings("event", settings.event)
        settings.from = try resolution.optionalString("from")
        settings.until = try resolution.optionalString("until")
        settings.eventsFile = try resolution.optionalString("events")
        settings.nearEdge = try resolution.int("near-edge", settings.nearEdge)
        settings.shard = try resolution.optionalString("shard")
        settings.jobs = try resolution.int("jobs", settings.jobs)
        settings.timezone = try resolution.optionalString("timezone")
        settings.zoneData = try resolution.optionalString("zone-data")
        settings.maxPixels = try resolution.int("max-pixels", settings.maxPixels)
        settings.fastThumbnails = try resolution.bool("fast-thumbnails")
        settings.retryFailed = try resolution.bool("retry-failed")
        settings.noWait = try resolution.bool("no-wait")
        settings.includeHidden = try resolution.bool("include-hidden")
        settings.dryRun = try resolution.bool("dry-run")
        settings.report = try resolution.optionalString("report")
        settings.html = try resolution.optionalString("html")
        settings.json = try resolution.bool("json")
        settings.quiet = try resolution.bool("quiet")
        let format = try resolution.string("log-format", settings.logFormat.rawValue)
        guard let logFormat = LogFormat(rawValue: format) else {
            throw ValidationError("log-format '\(format)' is not text or json.")
        }
        settings.logFormat = logFormat
        // On a terminal the progress line and the summary say what info lines would.
        let offTerminal = isatty(STDERR_FILENO) == 0
        let level = try resolution.string("log-level", offTerminal ? "info" : "warning")
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw ValidationError(
                "log-level '\(level)' is not one of trace, debug, info, notice, warning, error, critical.")
        }
        settings.logLevel = logLevel
        let stats = try resolution.string("stats", offTerminal ? "30s" : "0")
        guard let seconds = Self.seconds(stats) else {
            throw ValidationError("stats '\(stats)' is not an interval such as 30s, 5m or 0.")
        }
        settings.stats = seconds
        settings.metricsFile = try resolution.optionalString("metrics-file")

        var server = ServerSettings()
        server.serverURL = try resolution.optionalString("server")
        server.functionsUrl = try resolution.optionalString("functions-url")
        server.token = try resolution.optionalString("token", isSecret: true)
        server.uploadToken = try resolution.optionalString("upload-token", isSecret: true)
        server.tokenCommand = try resolution.optionalString("token-command")
        // A token given where it outranks the token command (a flag over the file) is the one used.
        if server.token != nil, resolution.rank("token") < resolution.rank("token-command") {
            server.tokenCommand = nil
        }
        server.uploads = try resolution.int("uploads", server.uploads)
        server.retries = try resolution.int("retries", server.retries)
        server.stallTimeout = try resolution.int("stall-timeout", server.stallTimeout)
        server.unreachableTimeout = try resolution.int("unreachable-timeout", server.unreachableTimeout)
        server.http2 = try resolution.bool("http2")
        server.insecure = try resolution.bool("insecure")
        settings.connection = server

        try file?.checkKeys(known: resolution.keys)
        settings.shown = resolution.shown
        settings.configFile = file?.path
        return settings
    }

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

/// Reads each setting through the reader, in the one precedence, and notes what it read.
private struct Resolution {
    let reader: ConfigReader
    let sources: SettingSources
    let file: ConfigFile?
    private(set) var keys: Set<String> = []
    private(set) var shown: [(key: String, value: String, source: String)] = []

    init(reader: ConfigReader, sources: SettingSources, file: ConfigFile?) {
        self.reader = reader
        self.sources = sources
        self.file = file
    }

    mutating func string(_ key: String, _ fallback: String) throws -> String {
        try self.optionalString(key, fallback: fallback) ?? fallback
    }

    mutating func optionalString(_ key: String, isSecret: Bool = false, fallback: String? = nil) throws -> String? {
        let value = self.reader.string(forKey: ConfigKey(key), isSecret: isSecret)
        try self.note(
            key, value.map { isSecret ? "(secret, masked)" : Self.shown($0) } ?? fallback ?? "(none)", type: "text")
        return value
    }

    /// A URL's credentials are never shown.
    static func shown(_ value: String) -> String {
        value.contains("://") && value.contains("@") ? ServerAddress(baseURL: value).shown : value
    }

    /// How high the source of `key` stands: the command line 0, the environment 1, the file 2,
    /// the default 3.
    func rank(_ key: String) -> Int {
        switch self.sources.read(key)?.provider {
        case nil: 3
        case let provider? where provider.contains(Settings.Source.commandLine): 0
        case let provider? where provider.contains("Environment"): 1
        default: 2
        }
    }

    mutating func int(_ key: String, _ fallback: Int) throws -> Int {
        let value = self.reader.int(forKey: ConfigKey(key))
        try self.note(key, "\(value ?? fallback)", type: "whole number")
        return value ?? fallback
    }

    mutating func bool(_ key: String) throws -> Bool {
        let value = self.reader.bool(forKey: ConfigKey(key))
        try self.note(key, "\(value ?? false)", type: "true or false")
        return value ?? false
    }

    mutating func strings(_ key: String, _ fallback: [String]) throws -> [String] {
        var value = self.reader.stringArray(forKey: ConfigKey(key))
        // `event: Party` in the file: one value where a list may stand is a list of one.
        if value == nil, self.sources.read(key)?.isMalformed == true {
            value = self.reader.string(forKey: ConfigKey(key)).map { [$0] }
        }
        try self.note(key, (value ?? fallback).joined(separator: ", "), type: "list of text")
        return value ?? fallback
    }

    /// Records where `key` came from; throws when a provider held a value of the wrong type
    /// (swift-configuration then falls back to the default, which would hide the mistake).
    private mutating func note(_ key: String, _ value: String, type: String) throws {
        self.keys.insert(key)
        let read = self.sources.read(key)
        let source = self.describe(read?.provider, key: key)
        if read?.isMalformed == true {
            throw ValidationError("The setting \(key) from \(source) is not a \(type).")
        }
        self.shown.append((key, value, source))
    }

    private func describe(_ provider: String?, key: String) -> String {
        switch self.rank(key) {
        case 0: "command line"
        case 1: "environment " + ConfigFile.environmentName(of: key)
        case 2: self.file.map { "file \($0.path)" } ?? provider ?? ""
        default: "default"
        }
    }
}
