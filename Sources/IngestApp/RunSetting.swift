import Foundation
import IngestHashing
import Logging

/// One setting of `run`, declared once: its key, what it holds, its help and the check its value
/// must pass.
///
/// The key is the long option (`--near-edge`), the variable (`PHOTOINGEST_NEAR_EDGE`) and the
/// config file's key (`near-edge: 30`). ``Settings/resolve(given:configPath:environment:)`` reads
/// every setting of ``all`` in one precedence, checks it and stores it; `config show` lists them;
/// the command line takes its help from here. Adding a setting is one entry here and its use.
public struct RunSetting: Sendable {
    /// What the value is: how it is read, named in errors, and declared on the command line.
    public enum Kind: Sendable {
        case text, secret, number, list
        /// A switch: a flag turns it on; the environment or the file may turn it off again.
        case flag
    }

    public let key: String
    public let kind: Kind
    /// The placeholder in `--help` (`minutes` in `--near-edge <minutes>`); nil for a switch.
    public let valueName: String?
    public let help: String
    /// More help, shown below the option's line in `--help`.
    public var discussion: String?
    /// Reads the value from the configuration, checks it, and stores it in the settings.
    let resolve: @Sendable (inout SettingResolution, inout Settings) throws -> Void

    /// The setting of `key`; a key that is not in ``all`` is a programmer's mistake.
    public static func named(_ key: String) -> RunSetting {
        guard let setting = Self.all.first(where: { $0.key == key }) else {
            preconditionFailure("no run setting is named \(key)")
        }
        return setting
    }

    /// A whole number within `allowed`, said as `problem` when it is not ("must be at least 1").
    static func number(
        _ key: String, _ field: WritableKeyPath<Settings, Int> & Sendable, valueName: String, help: String,
        allowed: PartialRangeFrom<Int>, problem: String
    ) -> RunSetting {
        Self.number(
            key, field, valueName: valueName, help: help, allowed: allowed.lowerBound...Int.max, problem: problem)
    }

    static func number(
        _ key: String, _ field: WritableKeyPath<Settings, Int> & Sendable, valueName: String, help: String,
        allowed: ClosedRange<Int>, problem: String
    ) -> RunSetting {
        RunSetting(key: key, kind: .number, valueName: valueName, help: help) { resolution, settings in
            let value = try resolution.int(key, settings[keyPath: field])
            guard allowed.contains(value) else { throw UsageError("\(resolution.origin(key)) \(problem).") }
            settings[keyPath: field] = value
        }
    }

    /// Text, absent unless given; `check` returns what is wrong with a value, nil when it is usable.
    static func text(
        _ key: String, _ field: WritableKeyPath<Settings, String?> & Sendable, valueName: String, help: String,
        secret: Bool = false, check: @escaping @Sendable (String) -> String? = { _ in nil }
    ) -> RunSetting {
        RunSetting(key: key, kind: secret ? .secret : .text, valueName: valueName, help: help) { resolution, settings in
            let value = try resolution.optionalString(key, isSecret: secret)
            if let value, let problem = check(value) {
                throw UsageError("\(resolution.origin(key)) '\(value)' \(problem)")
            }
            settings[keyPath: field] = value
        }
    }

    /// Text with a default (shown by `config show`), turned into the setting's type by `parse`,
    /// which throws what is wrong with a refused value ("is not text or json.").
    static func parsed<Value>(
        _ key: String, _ field: WritableKeyPath<Settings, Value> & Sendable, valueName: String, help: String,
        default fallback: @escaping @Sendable () -> String, parse: @escaping @Sendable (String) throws -> Value
    ) -> RunSetting {
        RunSetting(key: key, kind: .text, valueName: valueName, help: help) { resolution, settings in
            let text = try resolution.string(key, fallback())
            do {
                settings[keyPath: field] = try parse(text)
            } catch let error as UsageError {
                throw UsageError("\(resolution.origin(key)) '\(text)' \(error.message)")
            }
        }
    }

    /// A period given as `30s`, `5m` or `1h`, never zero; its default, the component's own (read
    /// from a fresh ``Settings``), ends its help.
    static func interval(
        _ key: String, _ field: WritableKeyPath<Settings, Duration> & Sendable, help: String
    ) -> RunSetting {
        let fallback = Self.periodText(Settings()[keyPath: field])
        return .parsed(
            key, field, valueName: "interval", help: help + " Default: \(fallback).", default: { fallback },
            parse: { text in .seconds(try Self.period(text, examples: "\(fallback), 30s or 5m")) })
    }

    /// A period as it is given: `2s`, `5m`, `1h`.
    static func periodText(_ period: Duration) -> String {
        let seconds = period.components.seconds
        if seconds > 0 && seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds > 0 && seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// Whole minutes within `allowed`, stored as the seconds the component reads; its default,
    /// the component's own, is said at the end of its help.
    static func minutes(
        _ key: String, _ field: WritableKeyPath<Settings, TimeInterval> & Sendable, help: String,
        allowed: ClosedRange<Int>, problem: String
    ) -> RunSetting {
        let fallback = Int(Settings()[keyPath: field] / 60)
        return RunSetting(key: key, kind: .number, valueName: "minutes", help: help + " (default \(fallback)).") {
            resolution, settings in
            let value = try resolution.int(key, fallback)
            guard allowed.contains(value) else { throw UsageError("\(resolution.origin(key)) \(problem).") }
            settings[keyPath: field] = TimeInterval(value * 60)
        }
    }

    /// The whole seconds of a period (`30s`, `5m`, `1h`), never zero; else why not, with `examples`.
    static func period(_ text: String, examples: String) throws(UsageError) -> Int {
        guard let seconds = Settings.seconds(text), seconds > 0 else {
            throw UsageError("is not an interval such as \(examples).")
        }
        return seconds
    }

    /// A period as ``interval(_:_:help:default:)`` reads it, absent unless given.
    static func optionalInterval(_ key: String, _ field: WritableKeyPath<Settings, Int?> & Sendable, help: String)
        -> RunSetting
    {
        .optionalParsed(key, field, valueName: "interval", help: help) { text, origin in
            do {
                return try Self.period(text, examples: "30s, 45m or 2h")
            } catch let error as UsageError {
                throw UsageError("\(origin) '\(text)' \(error.message)")
            }
        }
    }

    /// Text turned into the setting's type once, as it is read, absent unless given (an empty
    /// value clears one given below it). `parse` is given the text and where it came from
    /// (`--shard`, `PHOTOINGEST_SHARD`), and throws the whole message for a refused value.
    static func optionalParsed<Value>(
        _ key: String, _ field: WritableKeyPath<Settings, Value?> & Sendable, valueName: String, help: String,
        parse: @escaping @Sendable (String, String) throws -> Value
    ) -> RunSetting {
        RunSetting(key: key, kind: .text, valueName: valueName, help: help) { resolution, settings in
            guard let text = try resolution.optionalString(key) else {
                settings[keyPath: field] = nil
                return
            }
            settings[keyPath: field] = try parse(text, resolution.origin(key))
        }
    }

    /// A switch that, when on, sets its component's field to `value` (`--no-name-dates` turns name
    /// dating off, `--fast-thumbnails` picks the shallower decode); off, it leaves the default.
    /// Two switches of one field (`--poll`, `--no-poll`) must not be on together: the later in
    /// the table names the earlier as `contradicting`, and both on is noted in
    /// ``Settings/contradictions``, which a run refuses and `config show` warns of.
    static func choice<Value>(
        _ key: String, _ field: WritableKeyPath<Settings, Value> & Sendable, when value: Value, help: String,
        discussion: String? = nil, contradicting other: String? = nil
    ) -> RunSetting where Value: Sendable & Equatable {
        RunSetting(key: key, kind: .flag, valueName: nil, help: help, discussion: discussion) { resolution, settings in
            guard try resolution.bool(key) else { return }
            if let other, settings[keyPath: field] != Settings()[keyPath: field] {
                settings.contradictions.append(
                    "\(resolution.origins.naming([other, key])) contradict each other: give one.")
            }
            settings[keyPath: field] = value
        }
    }

    static func flag(
        _ key: String, _ field: WritableKeyPath<Settings, Bool> & Sendable, help: String, discussion: String? = nil
    ) -> RunSetting {
        RunSetting(key: key, kind: .flag, valueName: nil, help: help, discussion: discussion) { resolution, settings in
            settings[keyPath: field] = try resolution.bool(key)
        }
    }

    /// A list whose every item `parse` turns into the setting's type; an item it refuses (nil)
    /// is said as `problem`, with where it was given.
    static func parsedList<Value>(
        _ key: String, _ field: WritableKeyPath<Settings, [Value]> & Sendable, valueName: String, help: String,
        discussion: String, problem: String, parse: @escaping @Sendable (String) -> Value?
    ) -> RunSetting {
        RunSetting(key: key, kind: .list, valueName: valueName, help: help, discussion: discussion) {
            resolution, settings in
            settings[keyPath: field] = try resolution.strings(key, []).map { text in
                guard let value = parse(text) else {
                    throw UsageError("\(resolution.origin(key)) '\(text)' \(problem)")
                }
                return value
            }
        }
    }

    static func list(
        _ key: String, _ field: WritableKeyPath<Settings, [String]> & Sendable, valueName: String, help: String
    ) -> RunSetting {
        RunSetting(key: key, kind: .list, valueName: valueName, help: help) { resolution, settings in
            settings[keyPath: field] = try resolution.strings(key, settings[keyPath: field])
        }
    }
}
