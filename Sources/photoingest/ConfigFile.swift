import ArgumentParser
import Configuration
import Foundation
import SystemPackage
import Yams

/// The YAML file of settings: `--config FILE`, else `$PHOTOINGEST_CONFIG`, else
/// `$XDG_CONFIG_HOME/photoingest/config.yaml` when it exists. Its keys are the long options of
/// `run` without the dashes in front (`jobs: 4`, `dry-run: true`, `paths: [/srv/inbox]`).
struct ConfigFile {
    var path: String

    /// The file to read, or nil when none was named and the default one does not exist.
    static func locate(explicit: String?) throws -> ConfigFile? {
        let named =
            explicit ?? ProcessInfo.processInfo.environment["PHOTOINGEST_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        guard let named else {
            let path = Self.defaultPath
            return FileManager.default.fileExists(atPath: path) ? ConfigFile(path: path) : nil
        }
        guard FileManager.default.isReadableFile(atPath: named) else {
            throw ValidationError("The config file '\(named)' does not exist or cannot be read.")
        }
        guard !named.hasSuffix(".toml") else {
            throw ValidationError("'\(named)': config files are YAML (config.yaml); TOML is not read.")
        }
        return ConfigFile(path: named)
    }

    /// `$XDG_CONFIG_HOME/photoingest/config.yaml`, i.e. `~/.config/photoingest/config.yaml`.
    static var defaultPath: String { Defaults.xdg("XDG_CONFIG_HOME", fallback: ".config") + "/photoingest/config.yaml" }

    /// The variable that sets `key`: `near-edge` is `PHOTOINGEST_NEAR_EDGE`.
    static func environmentName(of key: String) -> String {
        "PHOTOINGEST_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    func provider() async throws -> FileProvider<YAMLSnapshot> {
        do {
            return try await FileProvider<YAMLSnapshot>(
                parsingOptions: .init(secretsSpecifier: .specific(["token", "upload-token"])),
                filePath: FilePath(self.path))
        } catch {
            // The parser's first line says where; the lines after it quote the file, tokens included.
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? ""
            throw ValidationError("The config file '\(self.path)' is not a YAML mapping of settings: \(reason)")
        }
    }

    /// Refuses a key no setting has, naming it (and the setting it most likely meant): a
    /// misspelt key would otherwise be ignored, and the run would use the default.
    func checkKeys(known: Set<String>) throws {
        let text = try String(contentsOfFile: self.path, encoding: .utf8)
        guard let mapping = try Yams.load(yaml: text) as? [String: Any] else {
            throw ValidationError("The config file '\(self.path)' is not a YAML mapping of settings.")
        }
        for key in mapping.keys.sorted() where !known.contains(key) {
            let closest = known.min { Self.distance(key, $0) < Self.distance(key, $1) }
            let hint = closest.map { Self.distance(key, $0) <= 3 ? " (did you mean \($0)?)" : "" } ?? ""
            throw ValidationError(
                "The config file '\(self.path)' has the key '\(key)', which is no setting\(hint); "
                    + "`photoingest config show` lists them.")
        }
    }

    /// Levenshtein distance, for the hint.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// `--config FILE`, for every command that reads settings.
struct ConfigFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Settings in YAML, one key per long option (jobs: 4). Default: $PHOTOINGEST_CONFIG, else ~/.config/photoingest/config.yaml if it exists. Flags win over PHOTOINGEST_<OPTION> variables, which win over the file.",
            valueName: "file"))
    var config: String?
}
