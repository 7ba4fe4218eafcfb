import ArgumentParser
import Foundation
import IngestCore
import IngestTransport

/// How to reach a PhotoShare server and prove who we are: shared by `run` and `events`.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "PhotoShare server to upload to (default: $PHOTOINGEST_SERVER; without one, the local archive).",
            valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Base URL of the functions host serving the hash route, when it is not --server.", valueName: "url"))
    var functionsUrl: String?

    @Option(
        help: ArgumentHelp(
            "Access token (default: $PHOTOINGEST_TOKEN). Prefer the variable: arguments show in ps.", valueName: "token"
        ))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Upload token (default: $PHOTOINGEST_UPLOAD_TOKEN, else the access token).", valueName: "token"))
    var uploadToken: String?

    @Option(
        help: ArgumentHelp(
            "Command printing a fresh token, or JSON {\"access\":…,\"upload\":…}; run again when a token nears expiry.",
            valueName: "command"))
    var tokenCommand: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Concurrent uploads, one HTTP/1.1 connection each.", valueName: "n")
    )
    var uploads = 6

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Retries for network errors, 5xx and 429, with exponential back-off.", valueName: "n"))
    var retries = 5

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Give up on a request (and retry it) when the server sends or takes nothing for this many seconds; after Ctrl-C, the uploads in flight get this long to finish.",
            valueName: "seconds"))
    var stallTimeout = 30

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Stop the run when the server has answered nothing (connections refused or timing out) for this many seconds; the files not done are left for the next run (exit status 3).",
            valueName: "seconds"))
    var unreachableTimeout = 30

    @Flag(help: "Multiplex uploads over HTTP/2 (often slower for bulk uploads than several HTTP/1.1 connections).")
    var http2 = false

    @Flag(help: "Do not verify the server's TLS certificate. Insecure: a warning is printed.")
    var insecure = false

    static let environment = ProcessInfo.processInfo.environment

    var serverURL: String? { self.server ?? Self.environment["PHOTOINGEST_SERVER"] }

    func validateServer() throws {
        guard let url = self.serverURL else { return }
        for (option, value) in [("--server", url), ("--functions-url", self.functionsUrl)] {
            guard let value else { continue }
            guard let parsed = URL(string: value), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil
            else {
                throw ValidationError(
                    "\(option) '\(value)' is not an http(s) URL, e.g. https://photoshare.example.com.")
            }
        }
        if self.uploads < 1 { throw ValidationError("--uploads must be at least 1.") }
        if self.retries < 0 { throw ValidationError("--retries cannot be negative.") }
        if self.stallTimeout < 1 { throw ValidationError("--stall-timeout must be at least 1 second.") }
        if self.unreachableTimeout < 1 { throw ValidationError("--unreachable-timeout must be at least 1 second.") }
        _ = try self.tokenSource()
    }

    func tokenSource() throws -> TokenProvider.Source {
        if let command = self.tokenCommand { return .command(command) }
        guard let access = self.token ?? Self.environment["PHOTOINGEST_TOKEN"], !access.isEmpty else {
            throw ValidationError(
                "A server needs a token: set PHOTOINGEST_TOKEN (or --token), or give --token-command.")
        }
        let upload = self.uploadToken ?? Self.environment["PHOTOINGEST_UPLOAD_TOKEN"] ?? access
        return .fixed(access: access, upload: upload)
    }

    /// The events the server lists for this user; its failure names the server.
    static func events(of client: PhotoShareClient) async throws(IngestError) -> [Event] {
        do {
            return try await client.events()
        } catch {
            throw IngestError(error.code, "cannot list the events of \(client.address.shown): \(error.message)")
        }
    }

    /// The client for the server; nil in archive mode.
    func client() throws -> PhotoShareClient? {
        guard let url = self.serverURL else { return nil }
        if self.insecure {
            FileHandle.standardError.write(
                Data(
                    "warning: --insecure: the server's TLS certificate is not verified; anyone on the path can read the tokens.\n"
                        .utf8))
        }
        var options = TransportOptions()
        options.maxConnections = self.uploads
        options.http2 = self.http2
        options.insecure = self.insecure
        options.lowSpeedSeconds = self.stallTimeout
        options.connectTimeoutMilliseconds = min(options.connectTimeoutMilliseconds, self.stallTimeout * 1_000)
        return PhotoShareClient(
            address: ServerAddress(baseURL: url, functionsURL: self.functionsUrl),
            transport: HTTPTransport(options: options),
            tokens: TokenProvider(try self.tokenSource()), retry: RetryPolicy(retries: self.retries),
            unreachableAfter: TimeInterval(self.unreachableTimeout))
    }
}
