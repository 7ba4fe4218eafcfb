import ArgumentParser
import Foundation
import IngestArchive
import IngestCore

struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event", abstract: "Add and list events.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an event; prints its id. A running server sees it at once.")

        @Option(help: ArgumentHelp("The data folder.", valueName: "dir"))
        var data: String

        @Option(help: "The event's name.")
        var name: String

        @Option(
            help: ArgumentHelp(
                "Start of the window (RFC 3339; no zone means UTC; a date alone, its first instant in UTC).",
                valueName: "time"))
        var start: String

        @Option(
            help: ArgumentHelp(
                "End of the window, included (RFC 3339; no zone means UTC; a date alone, its last instant in UTC, so the whole day is in, as photoingest's --until).",
                valueName: "time"))
        var end: String

        @Option(help: ArgumentHelp("A user who takes part (repeatable).", valueName: "user"))
        var participant: [String] = []

        func run() async throws {
            // One rule with photoingest's --from and --until: a date alone is the whole day.
            guard let start = RFC3339.windowBound(self.start, isEnd: false),
                let end = RFC3339.windowBound(self.end, isEnd: true)
            else {
                throw ValidationError(
                    "--start and --end are RFC 3339 times or dates, e.g. 2025-09-27T21:00:00Z or 2025-09-27.")
            }
            guard start <= end else { throw ValidationError("--start is after --end.") }
            let archive = try Archive(root: self.data)
            let namesakes = try await archive.events().filter { $0.0.name == self.name }.map(\.0.id)
            if !namesakes.isEmpty {
                // Allowed, as the API allows it, but photoingest --event then needs the id.
                FileHandle.standardError.write(
                    Data(
                        ("warning: an event named \(self.name) exists already (\(namesakes.joined(separator: ", "))); "
                            + "photoingest --event takes an id where names repeat\n").utf8))
            }
            let event = try await archive.addEvent(
                name: self.name, window: EventWindow(start: start, end: end), participants: self.participant)
            print(event.id)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the events, their windows and participants.")

        @Option(help: ArgumentHelp("The data folder.", valueName: "dir"))
        var data: String

        func run() async throws {
            let archive = try Archive(root: self.data)
            for (event, participants) in try await archive.events() {
                let start = event.window.start.map(RFC3339.format) ?? ".."
                let end = event.window.end.map(RFC3339.format) ?? ".."
                print("\(event.id)\t\(event.name)\t\(start)\t\(end)\t\(participants.joined(separator: ","))")
            }
        }
    }
}
