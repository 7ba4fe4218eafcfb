import ArgumentParser
import Configuration
import IngestApp

/// A parsed argument, option or flag, as a setting given on the command line.
protocol GivenValue {
    /// The value given, nil when nothing was (an absent option, a switch left off, no paths).
    var given: ConfigContent? { get }
}

extension Option: GivenValue {
    var given: ConfigContent? { ConfigContent(given: self.wrappedValue) }
}

extension Flag: GivenValue {
    var given: ConfigContent? { ConfigContent(given: self.wrappedValue) }
}

extension Argument: GivenValue {
    var given: ConfigContent? { ConfigContent(given: self.wrappedValue) }
}

extension ConfigContent {
    /// A parsed value as a setting: a switch only when on, a list only when it holds something.
    init?(given value: Any) {
        switch value {
        case let number as Int: self = .int(number)
        case let text as String: self = .string(text)
        case let list as [String] where !list.isEmpty: self = .stringArray(list)
        case let isOn as Bool where isOn: self = .bool(true)
        default: return nil
        }
    }
}

extension ParsableArguments {
    /// The settings given on the command line, by key: each property is the option it declares,
    /// and its key is its long option's name (`nearEdge` is `--near-edge`, key `near-edge`).
    var given: [String: ConfigContent] {
        var given: [String: ConfigContent] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, let value = child.value as? any GivenValue, let content = value.given
            else { continue }
            let key = Self.settingKey(property: label)
            // A declaration with no setting behind it is this program's mistake, found by any run.
            precondition(RunSetting.all.contains { $0.key == key }, "--\(key) is declared but is no run setting")
            given[key] = content
        }
        return given
    }

    /// `_nearEdge` (a property wrapper's storage) is `near-edge`, as ArgumentParser spells the flag.
    static func settingKey(property: String) -> String {
        let name = property.hasPrefix("_") ? property.dropFirst() : Substring(property)
        return name.reduce(into: "") { key, character in
            if character.isUppercase {
                key += "-" + character.lowercased()
            } else {
                key.append(character)
            }
        }
    }
}

extension ArgumentHelp {
    /// The help of the run setting `key`, as ``RunSetting/all`` declares it.
    static func setting(_ key: String) -> ArgumentHelp {
        let setting = RunSetting.named(key)
        return ArgumentHelp(setting.help, discussion: setting.discussion ?? "", valueName: setting.valueName)
    }
}
