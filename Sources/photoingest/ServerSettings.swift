import ArgumentParser
import Foundation
import IngestCore
import IngestTransport

/// How to reach a PhotoShare server and prove who we are, once flags, environment and config
/// file are merged.
struct ServerSettings {
    var serverURL: String?
    var functionsUrl: String?
    var token: String?
    var uploadToken: String?
    var tokenCommand: String?
    var uploads = 6
    var retries = 5
    var stallTimeout = 30
    var unreachableTimeout = 30
    var http2 = false
    var insecure = false

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
        guard let access = self.token, !access.isEmpty else {
            throw ValidationError(
                "A server needs a token: set PHOTOINGEST_TOKEN (or --token), or give --token-command.")
        }
        let upload = self.uploadToken ?? access
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
            transport: try HTTPTransport(options: options),
            tokens: TokenProvider(try self.tokenSource()), retry: RetryPolicy(retries: self.retries),
            unreachableAfter: TimeInterval(self.unreachableTimeout))
    }
}
