import ArgumentParser
import Foundation

/// Where photoingest keeps its data when not told otherwise, following the XDG base directories.
enum Defaults {
    static var home: String { ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory() }

    static func xdg(_ variable: String, fallback: String) -> String {
        if let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }

    /// `$XDG_DATA_HOME/photoingest/archive`, i.e. `~/.local/share/photoingest/archive`.
    static var archive: String { xdg("XDG_DATA_HOME", fallback: ".local/share") + "/photoingest/archive" }

    /// `$XDG_STATE_HOME/photoingest/catalog.sqlite`, i.e. `~/.local/state/photoingest/catalog.sqlite`.
    static var catalog: String { xdg("XDG_STATE_HOME", fallback: ".local/state") + "/photoingest/catalog.sqlite" }

    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The zone named by a `--timezone` option, or this machine's when none was given.
    static func zone(named name: String?) throws -> TimeZone {
        guard let name else { return TimeZone.current }
        // Foundation names "UTC" "GMT"; its IANA name keeps what the user asked for recognisable.
        guard let zone = TimeZone(identifier: name == "UTC" ? "Etc/UTC" : name) else {
            throw ValidationError("--timezone '\(name)' is not an IANA time zone name, e.g. Europe/Berlin or UTC.")
        }
        return zone
    }
}
