import Configuration
import Foundation
import IngestCore
import SystemPackage
import TOMLKit
import Yams

/// The file of settings, YAML or TOML by its name's ending: `--config FILE`, else
/// `$PHOTOINGEST_CONFIG`, else `$XDG_CONFIG_HOME/photoingest/config.yaml` (or `config.toml`) when
/// it exists. Its keys are the long options of `run` without the dashes in front (`jobs: 4`,
/// `dry-run: true`, `paths: [/srv/inbox]`; in TOML `jobs = 4`, `paths = ["/srv/inbox"]`).
public struct ConfigFile {
    var path: String

    enum Format: String {
        case yaml = "YAML"
        case toml = "TOML"
    }

    var format: Format { self.path.hasSuffix(".toml") ? .toml : .yaml }

    /// The keys whose values are never shown.
    static let secretKeys: Set<String> = ["token", "upload-token"]

    /// The file to read, or nil when none was named and the default one does not exist.
    static func locate(explicit: String?, environment: [String: String]) throws -> ConfigFile? {
        let named = explicit ?? environment[Self.pathVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let named else {
            let existing = Self.defaultPaths.filter { FileManager.default.fileExists(atPath: $0) }
            guard existing.count < 2 else {
                throw UsageError("Both \(existing.joined(separator: " and ")) exist: keep one of them.")
            }
            return existing.first.map { ConfigFile(path: $0) }
        }
        guard FileManager.default.isReadableFile(atPath: named) else {
            throw UsageError("The config file '\(named)' does not exist or cannot be read.")
        }
        return ConfigFile(path: named)
    }

    /// `$XDG_CONFIG_HOME/photoingest/config.yaml` and `config.toml`, i.e. in `~/.config/photoingest`.
    public static var defaultPaths: [String] {
        let folder = Defaults.xdg("XDG_CONFIG_HOME", fallback: ".config") + "/photoingest/"
        return [folder + "config.yaml", folder + "config.toml"]
    }

    /// The variable that names the config file, when `--config` does not.
    static let pathVariable = "PHOTOINGEST_CONFIG"

    /// The variable that sets `key`: `near-edge` is `PHOTOINGEST_NEAR_EDGE`.
    static func environmentName(of key: String) -> String {
        "PHOTOINGEST_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    func provider() async throws -> any ConfigProvider {
        do {
            switch self.format {
            case .yaml:
                return try await FileProvider<YAMLSnapshot>(
                    parsingOptions: .init(secretsSpecifier: .specific(Self.secretKeys)), filePath: FilePath(self.path))
            case .toml:
                return try await FileProvider<TOMLSnapshot>(
                    parsingOptions: .init(secrets: Self.secretKeys), filePath: FilePath(self.path))
            }
        } catch {
            throw self.unreadable(error)
        }
    }

    /// The parser's reason, its first line only: YAML's next lines quote the file, tokens included.
    private func unreadable(_ error: any Error) -> UsageError {
        let reason: String
        if let error = error as? TOMLParseError {
            reason = "\(error.description) (line \(error.source.begin.line), column \(error.source.begin.column))"
        } else {
            reason = "\(error)".split(separator: "\n").first.map(String.init) ?? ""
        }
        return UsageError("The config file '\(self.path)' cannot be read as \(self.format.rawValue): \(reason)")
    }

    /// The keys at the top of the file.
    private func topLevelKeys() throws -> [String] {
        let text = try String(contentsOfFile: self.path, encoding: .utf8)
        switch self.format {
        case .yaml:
            guard let mapping = try Yams.load(yaml: text) as? [String: Any] else {
                throw UsageError("The config file '\(self.path)' is not a YAML mapping of settings.")
            }
            return Array(mapping.keys)
        case .toml:
            do {
                return try TOMLTable(string: text).keys
            } catch {
                throw self.unreadable(error)
            }
        }
    }

    /// Refuses a key no setting has, naming it (and the setting it most likely meant): a
    /// misspelt key would otherwise be ignored, and the run would use the default.
    func checkKeys(known: Set<String>) throws {
        for key in try self.topLevelKeys().sorted() where !known.contains(key) {
            let hint = EditDistance.nearest(to: key, among: known, limit: 3).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(
                "The config file '\(self.path)' has the key '\(key)', which is no setting\(hint); "
                    + "`photoingest config show` lists them.")
        }
    }
}
