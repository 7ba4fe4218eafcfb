import Foundation
import IngestCore

/// Names that are never ingested: what NAS boxes, file managers and photo programs keep beside
/// photos, the user's `--exclude` globs, and the globs of `.photoingestignore` files.
///
/// A glob without a slash is matched against an entry's name; one with a slash against its path
/// below the walk's root (or below the folder of the ignore file that holds it). The default
/// names are matched whatever their case: Windows and macOS write them on file systems that
/// ignore case. An `--include` glob takes back a name any rule would exclude.
public struct ExclusionRules: Sendable, Equatable {
    /// One glob, with where the names it matches come from (for the docs and `--help`).
    public struct Rule: Sendable, Equatable {
        public var glob: String
        public var origin: String
    }

    /// The names excluded unless `--no-default-excludes`.
    public static let defaults: [Rule] = [
        Rule(glob: "@eaDir", origin: "Synology DSM: thumbnails and index data, a folder per photo"),
        Rule(glob: "SYNOPHOTO_THUMB_*", origin: "Synology Photos thumbnails"),
        Rule(glob: "SYNOFILE_THUMB_*", origin: "Synology File Station thumbnails"),
        Rule(glob: "#recycle", origin: "Synology recycle bin"),
        Rule(glob: "#snapshot", origin: "Synology Btrfs snapshots"),
        Rule(glob: "@Recycle", origin: "QNAP recycle bin"),
        Rule(glob: ".@__thumb", origin: "QNAP thumbnails"),
        Rule(glob: "@__thumb", origin: "QNAP thumbnails"),
        Rule(glob: "Thumbs.db", origin: "Windows Explorer's thumbnail cache"),
        Rule(glob: "desktop.ini", origin: "Windows folder settings"),
        Rule(glob: ".DS_Store", origin: "macOS Finder's folder settings"),
        Rule(glob: "._*", origin: "macOS resource forks (AppleDouble) on non-Apple file systems"),
        Rule(glob: "*.lrdata", origin: "Lightroom previews and Smart Previews"),
        Rule(glob: ".photostructure", origin: "PhotoStructure's library data"),
        Rule(glob: "Recently Deleted", origin: "Apple Photos' deleted items, in exports"),
    ]

    /// The globs of ``defaults``.
    static let defaultGlobs = Set(Self.defaults.map(\.glob))

    /// The file whose globs exclude entries of its folder and below; itself never ingested.
    public static let ignoreFileName = ".photoingestignore"

    /// Longest ignore file read: globs, not data.
    static let ignoreFileLimit = 64 * 1024

    public var excludes: [String]
    public var includes: [String]
    public var useDefaults: Bool

    public init(excludes: [String] = [], includes: [String] = [], useDefaults: Bool = true) {
        self.excludes = excludes
        self.includes = includes
        self.useDefaults = useDefaults
    }

    /// The glob that excludes the entry `name`, at `path` below the root, or nil when it is taken.
    /// `scopes` are the ignore files above it, each with the entry's path below that file's folder.
    /// The path is worked out only for a glob with a slash: a walk asks this of every name.
    public func rule(
        name: String, path: @autoclosure () -> String, scopes: [(globs: [String], path: String)] = []
    ) -> String? {
        var found = self.useDefaults ? Self.defaultRule(for: name) : nil
        found = found ?? self.excludes.first { Self.matches($0, name: name, path: path) }
        for scope in scopes where found == nil {
            found = scope.globs.first { Self.matches($0, name: name, path: scope.path) }
        }
        guard let found else { return nil }
        return self.includes.contains { Self.matches($0, name: name, path: path) } ? nil : found
    }

    /// The default glob that matches `name`, compared byte by byte whatever the case: every glob
    /// of the list is a name, a name's start or its end, and `fnmatch` over 15 globs doubled the
    /// time of a re-run's walk (10,000 unchanged files: 0.31 s against 0.14 s).
    static func defaultRule(for name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes in
            // Most names start and end with a byte no default glob does: one lookup each.
            guard let first = bytes.first, let last = bytes.last,
                Self.startBytes[Int(NameScanner.lower(first))] || Self.endBytes[Int(NameScanner.lower(last))]
            else { return nil }
            return Self.defaultPatterns.first { pattern in
                let (text, part) = (pattern.text, pattern.part)
                guard bytes.count >= text.count, part != .whole || bytes.count == text.count else { return false }
                let start = part == .end ? bytes.count - text.count : 0
                for (offset, expected) in text.enumerated() where NameScanner.lower(bytes[start + offset]) != expected {
                    return false
                }
                return true
            }?.glob
        }
    }

    enum Part { case whole, start, end }

    /// The bytes (lower case) a default glob's name may start with, and end with.
    static let startBytes = Self.byteSet(Self.defaultPatterns.filter { $0.part != .end }.compactMap(\.text.first))
    static let endBytes = Self.byteSet(Self.defaultPatterns.filter { $0.part != .start }.compactMap(\.text.last))

    static func byteSet(_ bytes: [UInt8]) -> [Bool] {
        var set = [Bool](repeating: false, count: 256)
        for byte in bytes { set[Int(byte)] = true }
        return set
    }

    /// Each default glob as the lower-cased bytes it must hold, and where.
    static let defaultPatterns: [(glob: String, text: [UInt8], part: Part)] = Self.defaults.map { rule in
        let glob = rule.glob
        if glob.hasSuffix("*") { return (glob, Array(glob.dropLast().lowercased().utf8), .start) }
        if glob.hasPrefix("*") { return (glob, Array(glob.dropFirst().lowercased().utf8), .end) }
        return (glob, Array(glob.lowercased().utf8), .whole)
    }

    /// The globs of an ignore file: one per line; blank lines and lines starting with `#` say
    /// nothing; a leading slash anchors a glob to the file's folder, as in `.gitignore`.
    public static func globs(inIgnoreFile text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let glob = line.trimmingCharacters(in: .whitespaces)
            if glob.isEmpty || glob.hasPrefix("#") { return nil }
            return glob.hasPrefix("/") ? String(glob.dropFirst()) : glob
        }
    }

    static func matches(_ glob: String, name: String, path: () -> String) -> Bool {
        glob.contains("/") ? fnmatch(glob, path(), FNM_PATHNAME) == 0 : fnmatch(glob, name, 0) == 0
    }

    static func matches(_ glob: String, name: String, path: String) -> Bool {
        Self.matches(glob, name: name, path: { path })
    }
}
