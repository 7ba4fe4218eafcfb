import ArgumentParser
import CBuildInfo
import Foundation

@main
struct PhotoshareServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photoshare-server",
        abstract: "The reference PhotoShare server: the PhotoShare API over a photoingest archive.",
        discussion: """
            Runs everything photoingest talks to on one machine: events and their participants, \
            HS256 tokens, the hash routes and uploads, stored in the archive's layout. Example:

              export PHOTOSHARE_SECRET=$(head -c 32 /dev/urandom | base64)
              photoshare-server event add --data /srv/photoshare --name "Birthday Party" \\
                  --start 2025-09-27T21:00:00Z --end 2025-09-28T05:00:00Z --participant alice
              photoshare-server token --user alice --ttl 3600
              photoshare-server serve --data /srv/photoshare --port 8080
            """,
        version: String(cString: ingest_build_version()),
        subcommands: [ServeCommand.self, TokenCommand.self, EventCommand.self])
}

/// The secret every subcommand signs or checks tokens with.
struct SecretOptions: ParsableArguments {
    @Option(help: ArgumentHelp("HS256 secret for tokens (default: $PHOTOSHARE_SECRET).", valueName: "secret"))
    var secret: String?

    /// HS256 keys shorter than the hash (32 bytes) are weak, and jwt-kit refuses them.
    static let minimumBytes = 32

    func resolved() throws -> String {
        guard let secret = self.secret ?? ProcessInfo.processInfo.environment["PHOTOSHARE_SECRET"], !secret.isEmpty
        else {
            throw ValidationError("No secret: pass --secret or set PHOTOSHARE_SECRET.")
        }
        guard secret.utf8.count >= Self.minimumBytes else {
            throw ValidationError(
                "The secret has \(secret.utf8.count) bytes; HS256 needs at least \(Self.minimumBytes) "
                    + "(e.g. PHOTOSHARE_SECRET=$(head -c 32 /dev/urandom | base64)).")
        }
        return secret
    }
}
