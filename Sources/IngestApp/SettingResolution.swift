import Configuration
import IngestTransport

/// Reads each setting through the reader, in the one precedence, and notes what it read.
struct SettingResolution {
    let reader: ConfigReader
    let sources: SettingSources
    let file: ConfigFile?
    private(set) var keys: Set<String> = []
    private(set) var shown: [(key: String, value: String, source: String)] = []
    /// Where each setting read came from, as messages name it.
    private(set) var origins = SettingOrigins()

    init(reader: ConfigReader, sources: SettingSources, file: ConfigFile?) {
        self.reader = reader
        self.sources = sources
        self.file = file
    }

    mutating func string(_ key: String, _ fallback: String) throws -> String {
        try self.optionalString(key, fallback: fallback) ?? fallback
    }

    /// The text of `key`; an empty one (`--from ""`) clears what a lower source gave.
    mutating func optionalString(_ key: String, isSecret: Bool = false, fallback: String? = nil) throws -> String? {
        var value = self.reader.string(forKey: ConfigKey(key), isSecret: isSecret)
        if value?.isEmpty == true { value = nil }
        try self.note(
            key, value.map { isSecret ? "(secret, masked)" : Self.shown($0) } ?? fallback ?? "(none)", type: "text")
        return value
    }

    /// `key` as its origin names it, for a message about its value.
    func origin(_ key: String) -> String {
        self.origins.name(key)
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
        switch self.rank(key) {
        case 1: self.origins.note(key, .init(name: ConfigFile.environmentName(of: key)))
        case 2: self.origins.note(key, .init(name: key, file: self.file?.path))
        default: break
        }
        if read?.isMalformed == true {
            throw UsageError("The setting \(key) from \(source) is not a \(type).")
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
