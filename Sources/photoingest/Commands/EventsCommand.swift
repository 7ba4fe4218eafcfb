import ArgumentParser
import Foundation
import IngestCore
import IngestTransport

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List the events a PhotoShare server offers this user, with their windows.",
        discussion: """
            Windows are shown in UTC and in --timezone (default: this machine's zone).

            Example:
              PHOTOINGEST_TOKEN=… photoingest events --server https://photoshare.example.com --timezone Europe/Berlin
            """)

    @OptionGroup var connection: ServerOptions

    @Option(help: ArgumentHelp("IANA zone to show the windows in as well.", valueName: "zone"))
    var timezone: String?

    func validate() throws {
        guard self.connection.serverURL != nil else {
            throw ValidationError("Give --server (or set PHOTOINGEST_SERVER).")
        }
        try self.connection.validateServer()
        _ = try Defaults.zone(named: self.timezone)
    }

    func run() async throws {
        let zone = try Defaults.zone(named: self.timezone)
        guard let client = try self.connection.client() else { return }
        let events = try await client.events()
        if events.isEmpty {
            print("The server lists no events for this user.")
            return
        }
        func local(_ date: Date?) -> String {
            guard let date else { return ".." }
            let offset = zone.secondsFromGMT(for: date)
            return LocalDateTime(date, offsetSeconds: offset).description + UTCOffset.format(offset)
        }
        print("id\tname\tstart (UTC)\tend (UTC)\tstart (\(zone.identifier))\tend (\(zone.identifier))")
        for event in events {
            let start = event.window.start.map(RFC3339.format) ?? ".."
            let end = event.window.end.map(RFC3339.format) ?? ".."
            print("\(event.id)\t\(event.name)\t\(start)\t\(end)\t\(local(event.window.start))\t\(local(event.window.end))")
        }
    }
}
