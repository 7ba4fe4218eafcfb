import ArgumentParser
import CBuildInfo
import Foundation
import IngestCore
import IngestImaging
import IngestReport

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
        subcommands: [RunCommand.self, EventsCommand.self, ConfigCommand.self, ReportCommand.self])

    /// Exit status 2 for usage and configuration errors (ArgumentParser's own is 64).
    static let usageExitCode: Int32 = 2
    /// The server could not be used: it answered nothing, not as the API says, or refused the token.
    static let serverUnusableExitCode: Int32 = 3
    /// Another run holds the catalog or the archive (`--no-wait`): EX_TEMPFAIL, try again later.
    static let busyExitCode: Int32 = 75

    /// Ctrl-C, before the run began or during it.
    static let interruptedExitCode: Int32 = 130

    /// The exit status for an error that stopped the run, by what kind of error it is.
    static func exitStatus(for error: IngestError) -> Int32 {
        switch error.code {
        // Before any file: a failed request can only be the server's events or hash sets.
        case .serverUnreachable, .serverUnusable, .tokenRefused, .uploadFailed, .uploadRejected:
            self.serverUnusableExitCode
        case .busy: self.busyExitCode
        case .stopped: self.interruptedExitCode
        // The catalog holds the run; only its page is missing.
        case .reportUnwritable: ExitCode.failure.rawValue
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
            Foundation.exit(self.exitStatus(for: error))
        } catch {
            if self.exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((self.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(self.usageExitCode)
            }
            self.exit(withError: error)
        }
    }
}
