import ArgumentParser
import Foundation
import IngestApp

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings a run would use, and where each came from.",
        subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective settings of `run`, one per line, with their source; secrets masked.",
            discussion: """
                Each setting comes from the first of: a flag given here, a PHOTOINGEST_<OPTION> \
                variable (--near-edge is PHOTOINGEST_NEAR_EDGE), the config file, the default. \
                Takes the same options as `run`, so that a command line can be checked before it runs.

                Examples:
                  photoingest config show
                  photoingest config show --config /etc/photoingest/nightly.yaml --jobs 2
                """)

        @OptionGroup var arguments: RunArguments

        func run() async throws {
            let settings = try await self.arguments.settings()
            print(
                "# config file: "
                    + (settings.configFile ?? "none (no \(ConfigFile.defaultPaths.joined(separator: " or ")))"))
            let width = settings.shown.map { $0.key.count + $0.value.count }.max() ?? 0
            for line in settings.shown {
                let text = "\(line.key): \(line.value)"
                print(text + String(repeating: " ", count: max(1, width + 4 - text.count)) + "# " + line.source)
            }
        }
    }
}
