import Configuration
import Foundation
import TOMLKit

/// A TOML config file as swift-configuration's `FileProvider` reads it (the library reads JSON and
/// YAML itself). TOML values carry their type, so a setting takes the value as written: text, a
/// whole number, true or false, or an array of them. Two conversions are made, because a reader
/// would expect them: a whole number where text is read (`stats = 30`), and an unquoted TOML
/// date-time where text is read (`from = 2025-09-27T21:00:00Z`).
final class TOMLSnapshot: FileConfigSnapshot, Sendable {
    struct ParsingOptions: FileParsingOptions {
        /// Keys whose values are never shown (tokens).
        var secrets: Set<String> = []

        static var `default`: Self { .init() }
    }

    /// A value not of the type the setting reads, or of a type no setting has.
    struct Mismatch: Error, CustomStringConvertible {
        var key: String
        var type: ConfigType?
        var description: String {
            "The value of \(self.key) is not \(self.type.map { "of type \($0)" } ?? "of a setting's type")."
        }
    }

    let providerName: String
    /// The top-level keys with their values; nil for a value of a type no setting has (a table
    /// such as `[server]`, an array of arrays or of mixed types).
    private let values: [String: ConfigValue?]

    init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        let text = data.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let table = try TOMLTable(string: text)
        var values: [String: ConfigValue?] = [:]
        for key in table.keys {
            guard let value = table[key] else { continue }
            // updateValue keeps a key whose value is of no setting's type, so that reading it fails.
            values.updateValue(
                Self.content(of: value).map { ConfigValue($0, isSecret: parsingOptions.secrets.contains(key)) },
                forKey: key)
        }
        self.providerName = providerName
        self.values = values
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let name = key.components.joined(separator: ".")
        guard let stored = self.values[name] else { return LookupResult(encodedKey: name, value: nil) }
        guard let value = stored else { throw Mismatch(key: name) }
        switch (value.content, type) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.stringArray, .stringArray),
            (.intArray, .intArray), (.doubleArray, .doubleArray), (.boolArray, .boolArray):
            return LookupResult(encodedKey: name, value: value)
        case (.int(let number), .string):
            return LookupResult(encodedKey: name, value: ConfigValue(.string("\(number)"), isSecret: value.isSecret))
        default:
            throw Mismatch(key: name, type: type)
        }
    }

    var description: String { "\(self.providerName)[\(self.values.count) values]" }

    var debugDescription: String { self.description }

    /// The value as swift-configuration holds it; nil for a type no setting has.
    private static func content(of value: any TOMLValueConvertible) -> ConfigContent? {
        switch value.type {
        case .string: value.string.map { .string($0) }
        case .int: value.int.map { .int($0) }
        case .double: value.double.map { .double($0) }
        case .bool: value.bool.map { .bool($0) }
        case .date: value.date.map { .string($0.debugDescription) }
        case .time: value.time.map { .string($0.debugDescription) }
        case .dateTime: value.dateTime.map { .string($0.debugDescription) }
        case .array: value.array.flatMap(Self.content(ofArray:))
        case .table: nil
        }
    }

    private static func content(ofArray array: TOMLArray) -> ConfigContent? {
        let items = array.map { $0 as any TOMLValueConvertible }
        if let strings = Self.all(items, \.string) { return .stringArray(strings) }
        if let ints = Self.all(items, \.int) { return .intArray(ints) }
        if let doubles = Self.all(items, \.double) { return .doubleArray(doubles) }
        if let bools = Self.all(items, \.bool) { return .boolArray(bools) }
        return nil
    }

    /// Every item's value through `read`, or nil when one has another type.
    private static func all<T>(_ items: [any TOMLValueConvertible], _ read: (any TOMLValueConvertible) -> T?) -> [T]? {
        var result: [T] = []
        for item in items {
            guard let value = read(item) else { return nil }
            result.append(value)
        }
        return result
    }
}
