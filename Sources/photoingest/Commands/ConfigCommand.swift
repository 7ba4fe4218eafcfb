import ArgumentParser
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
            print(try await self.arguments.settings().shownText)
        }
    }
}
