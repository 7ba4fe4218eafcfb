import ArgumentParser
import CBuildInfo
import Foundation
import IngestApp
import IngestCore
import IngestImaging

@main
struct Photoingest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photoingest",
        abstract: "Bulk-import photos: hash, capture time in UTC, thumbnails, store, with a resumable catalog.",
        discussion: """
            photoingest reads every photo under the given paths once, works out when it was taken (in UTC, \
            saying where the time came from), keeps those inside the event's time window, skips the ones \
            the destination already holds, makes 500 px and 200 px thumbnails and stores everything. A \
            local SQLite catalog remembers each file, so running it again does only what is left.
            """,
        version: String(cString: ingest_build_version()),
        subcommands: [
            RunCommand.self, WatchCommand.self, VerifyCommand.self, EventsCommand.self, ConfigCommand.self,
            ReportCommand.self,
        ])

    static func main() async {
        ImagingLibrary.tuneMemory()
        do {
            var command = try self.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as IngestError {
            // The run could not start: an unusable archive, catalog or report file, a server
            // that cannot be used, another run holding the catalog.
            FileHandle.standardError.write(Data("photoingest: error: \(error.message)\n".utf8))
            Foundation.exit(ExitStatus.of(error))
        } catch {
            // The library's usage errors read as ArgumentParser's own, with the usage line.
            let error = (error as? UsageError).map { ValidationError($0.message) } ?? error
            if let suggestion = Self.commandSuggestion() {
                FileHandle.standardError.write(Data((suggestion + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            if self.exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((self.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            self.exit(withError: error)
        }
    }

    /// When the first word is no command but close to one (`rnu`), the command it likely meant.
    static func commandSuggestion(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = Self.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word), let closest = EditDistance.nearest(to: word, among: names, limit: 2) else {
            return nil
        }
        return "photoingest: '\(word)' is no command; did you mean '\(closest)'? (photoingest --help lists them)"
    }
}
