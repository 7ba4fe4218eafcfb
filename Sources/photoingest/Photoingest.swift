import ArgumentParser
import Foundation
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
        subcommands: [RunCommand.self, EventsCommand.self])

    /// Exit status 2 for usage and configuration errors (ArgumentParser's own is 64).
    static let usageExitCode: Int32 = 2
    /// The server could not be used: it answered nothing, or not as the API says.
    static let serverUnusableExitCode: Int32 = 3
    /// Another run holds the catalog or the archive (`--no-wait`): EX_TEMPFAIL, try again later.
    static let busyExitCode: Int32 = 75

    static func exitCode(for error: IngestError) -> Int32 {
        switch error.code {
        case .serverUnreachable, .serverUnusable: self.serverUnusableExitCode
        case .busy: self.busyExitCode
        default: self.usageExitCode
        }
    }

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
            Foundation.exit(self.exitCode(for: error))
        } catch {
            if self.exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((self.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(self.usageExitCode)
            }
            self.exit(withError: error)
        }
    }
}
