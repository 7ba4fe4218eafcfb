import ArgumentParser
import Foundation
import IngestApp
import IngestCore
import IngestTransport

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
        guard settings.connection.serverURL != nil else {
            throw ValidationError("Give --server (or set PHOTOINGEST_SERVER, or server: in the config file).")
        }
        try settings.connection.validateServer()
        let zone = try Defaults.zone(named: settings.timezone)
        guard let client = try settings.connection.client() else { return }
        let events = try await ServerSettings.events(of: client)
        if self.json {
            let array: [[String: Any]] = events.map { event in
                [
                    "id": event.id, "name": event.name,
                    "start": event.window.start.map(RFC3339.format) ?? NSNull(),
                    "end": event.window.end.map(RFC3339.format) ?? NSNull(),
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: array, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if events.isEmpty {
            print("The server lists no events for this user.")
            return
        }
        func local(_ date: Date?) -> String {
            guard let date else { return ".." }
            let offset = zone.secondsFromGMT(for: date)
            return LocalDateTime(date, offsetSeconds: offset).description + UTCOffset.format(offset)
        }
        print("id\tname\tstart (UTC)\tend (UTC)\tstart (\(zone.name))\tend (\(zone.name))")
        for event in events {
            let start = event.window.start.map(RFC3339.format) ?? ".."
            let end = event.window.end.map(RFC3339.format) ?? ".."
            print(
                "\(event.id)\t\(event.name)\t\(start)\t\(end)\t\(local(event.window.start))\t\(local(event.window.end))"
            )
        }
    }
}
