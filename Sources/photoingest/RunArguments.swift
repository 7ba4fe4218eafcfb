import ArgumentParser
import Configuration
import IngestApp

/// What `run` takes, and `config show` with it: the paths, the options, the config file, the server.
struct RunArguments: ParsableArguments {
    @Argument(help: .setting("paths"))
    var paths: [String] = []

    @OptionGroup var options: RunOptions

    @OptionGroup var configFile: ConfigFileOption

    @OptionGroup(title: "PhotoShare server")
    var connection: ServerOptions

    /// The run's settings: these flags (and `more`, a command's own), then the environment, the
    /// config file and the defaults.
    func settings(more: [String: ConfigContent] = [:]) async throws -> Settings {
        let given = self.options.given.merging(self.connection.given) { $1 }.merging(self.given) { $1 }
            .merging(more) { $1 }
        return try await Settings.resolve(given: given, configPath: self.configFile.config)
    }
}
