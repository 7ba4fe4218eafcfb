import ArgumentParser
import IngestApp

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List the events a PhotoShare server offers this user, with their windows.",
        discussion: """
            Windows are shown in UTC and in --timezone (default: this machine's zone).

            Examples:
              export PHOTOINGEST_SERVER=https://photoshare.example.com
              PHOTOINGEST_TOKEN=… photoingest events --timezone Europe/Berlin
              PHOTOINGEST_TOKEN=… photoingest events --json
            """)

    @OptionGroup var connection: ServerOptions

    @OptionGroup var configFile: ConfigFileOption

    @Option(
        name: [.customLong("timezone"), .customLong("tz")],
        help: ArgumentHelp("Zone to show the windows in as well (IANA name or ±HH:MM).", valueName: "zone"))
    var timezone: String?

    @Flag(help: "Print the events as a JSON array of {id, name, start, end} (UTC, null for an open end).")
    var json = false

    func run() async throws {
        var given = self.connection.given
        given["timezone"] = self.timezone.map { .string($0) }
        let settings = try await Settings.resolve(given: given, configPath: self.configFile.config)
        print(try await EventListing(settings: settings).text(json: self.json))
    }
}
