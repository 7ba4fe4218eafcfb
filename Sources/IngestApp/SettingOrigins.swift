/// Where each setting of a run was given, as messages about a value name it: `--from` on the
/// command line, `PHOTOINGEST_FROM` in the environment, `from` in the config file.
///
/// A message that says "drop --from" of a value the config file gave sends the user looking in
/// the wrong place; every message about a value names it by its origin.
public struct SettingOrigins: Sendable {
    /// One setting's origin: its name there, and the file it is in (nil off a file).
    struct Origin: Sendable, Equatable {
        var name: String
        var file: String?
    }

    private var origins: [String: Origin] = [:]

    public init() {}

    /// Notes that `key` came from `origin`; a key never noted is named as its flag.
    mutating func note(_ key: String, _ origin: Origin) {
        self.origins[key] = origin
    }

    /// `key` as its origin names it: `--from`, `PHOTOINGEST_FROM` or `from in /etc/photoingest.yaml`.
    public func name(_ key: String) -> String {
        self.naming([key])
    }

    /// The settings of `keys`, those of one file named together: `--event, from and until in
    /// /etc/photoingest.yaml`.
    public func naming(_ keys: [String]) -> String {
        var groups: [(file: String?, names: [String])] = []
        for key in keys {
            let origin = self.origins[key] ?? Origin(name: "--" + key)
            if let index = groups.firstIndex(where: { $0.file == origin.file }) {
                groups[index].names.append(origin.name)
            } else {
                groups.append((origin.file, [origin.name]))
            }
        }
        return Self.list(groups.map { Self.list($0.names) + ($0.file.map { " in " + $0 } ?? "") })
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
