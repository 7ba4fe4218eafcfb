import Foundation
import IngestCore

/// Where photoingest keeps its data when not told otherwise, following the XDG base directories.
public enum Defaults {
    static var home: String { ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory() }

    static func xdg(_ variable: String, fallback: String) -> String {
        if let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }

    /// `$XDG_DATA_HOME/photoingest/archive`, i.e. `~/.local/share/photoingest/archive`.
    static var archive: String { xdg("XDG_DATA_HOME", fallback: ".local/share") + "/photoingest/archive" }

    /// `$XDG_STATE_HOME/photoingest/catalog.sqlite`, i.e. `~/.local/state/photoingest/catalog.sqlite`.
    static var catalog: String { xdg("XDG_STATE_HOME", fallback: ".local/state") + "/photoingest/catalog.sqlite" }

    /// A year, in minutes: any margin beyond it is a mistake, and minutes times 60 must not overflow.
    public static let maxNearEdge = 525_600

    public static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The zone named by a `--timezone` option, or this machine's when none was given.
    ///
    /// Only IANA names and explicit offsets: an abbreviation means different things to different
    /// libraries (Foundation reads `PST` as Los Angeles with its DST, `EST` as a fixed -05:00), and
    /// `UTC+2` reads as the opposite sign in POSIX TZ.
    public static func zone(named name: String?, origin: String = "--timezone") throws -> TimeZone {
        guard let name else { return TimeZone.current }
        if name.first == "+" || name.first == "-" {
            guard let offset = UTCOffset.parse(name), let zone = TimeZone(secondsFromGMT: offset) else {
                throw UsageError(
                    "\(origin) '\(name)' is not an offset ±HH:MM within ±14:00, e.g. +02:00 or -07:00.")
            }
            return zone
        }
        let hint = "give an IANA name such as Europe/Berlin, America/Los_Angeles or UTC, or an offset such as +02:00"
        // Abbreviations (PST, CEST) and POSIX-style offsets (UTC+2, GMT-5): refused with the hint.
        let letters = name.unicodeScalars.allSatisfy { CharacterSet.uppercaseLetters.contains($0) }
        if (letters && name != "UTC" && name != "GMT")
            || (name.contains(where: { $0 == "+" || $0 == "-" }) && !name.contains("/"))
        {
            throw UsageError(
                "\(origin) '\(name)' is an abbreviation or a POSIX offset, which mean different things to different tools: \(hint)."
            )
        }
        // Foundation names "UTC" "GMT"; its IANA name keeps what the user asked for recognisable.
        let identifier = name == "UTC" ? "Etc/UTC" : name
        // The IANA nautical zones (Etc/GMT+7 is UTC-07:00, the sign as POSIX has it) are zones,
        // though Foundation does not list them.
        guard
            TimeZone.knownTimeZoneIdentifiers.contains(identifier) || identifier == "Etc/UTC"
                || identifier.hasPrefix("Etc/GMT"),
            let zone = TimeZone(identifier: identifier)
        else {
            throw UsageError("\(origin) '\(name)' is not a time zone this machine knows: \(hint).")
        }
        return zone
    }

    /// A warning when `TZ` names a zone this machine does not know: the C library then reads local
    /// times as UTC, silently.
    static func zoneVariableWarning() -> String? {
        guard var value = ProcessInfo.processInfo.environment["TZ"], !value.isEmpty else { return nil }
        if value.hasPrefix(":") { value.removeFirst() }
        let file = value.hasPrefix("/") ? value : "/usr/share/zoneinfo/" + value
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue { return nil }
        // A POSIX rule such as "EST5EDT,M3.2.0,M11.1.0" or "UTC0" is understood without a file.
        if value.range(of: #"^[A-Za-z]{3,}[-+]?[0-9]"#, options: .regularExpression) != nil { return nil }
        return "TZ='\(value)' names no time zone this machine knows, so this machine's zone is taken as UTC; "
            + "set TZ to an IANA name or give --timezone"
    }
}
