import Foundation
import IngestCore
import IngestTransport

/// How to reach a PhotoShare server and prove who we are, once flags, environment and config
/// file are merged.
public struct ServerSettings {
    public init() {}

    public var serverURL: String?
    public var functionsUrl: String?
    public var token: String?
    public var uploadToken: String?
    public var tokenCommand: String?
    public var uploads = 6
    public var retries = 5
    public var stallTimeout = 30
    public var unreachableTimeout = 30
    public var http2 = false
    public var insecure = false
    /// Where each of these was given, as messages name them.
    public var origins = SettingOrigins()

    public func validateServer() throws {
        guard let url = self.serverURL else { return }
        for (key, value) in [("server", url), ("functions-url", self.functionsUrl)] {
            guard let value else { continue }
            let option = self.origins.name(key)
            guard let parsed = URL(string: value), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil
            else {
                throw UsageError(
                    "\(option) '\(value)' is not an http(s) URL, e.g. https://photoshare.example.com.")
            }
        }
        _ = try self.tokenSource()
    }

    /// Where the tokens were given: a message about a token names its real source.
    var tokenOrigin: TokenProvider.Origin {
        if self.tokenCommand != nil {
            let command = "the command of " + self.origins.name("token-command")
            return TokenProvider.Origin(access: command, upload: command)
        }
        let access = self.origins.name("token")
        return TokenProvider.Origin(
            access: access, upload: self.uploadToken == nil ? access : self.origins.name("upload-token"))
    }

    /// For a watch: when a token given as it is expires within `horizon`, what to say. Such a
    /// token cannot be renewed, so the watch stops when the server refuses it; a token command can.
    /// Names the token's source and its expiry, never the token.
    func fixedTokenWarning(now: Date, horizon: TimeInterval = 12 * 3_600) -> String? {
        guard self.serverURL != nil, self.tokenCommand == nil else { return nil }
        let origin = self.tokenOrigin
        let expiring = [(self.token, origin.access), (self.uploadToken ?? self.token, origin.upload)].compactMap {
            token, name in token.flatMap(TokenProvider.expiry(of:)).map { (name, $0) }
        }.min { $0.1 < $1.1 }
        guard let (name, expiry) = expiring, expiry.timeIntervalSince(now) < horizon else { return nil }
        let minutes = Int(max(0, expiry.timeIntervalSince(now)) / 60)
        let left = minutes >= 120 ? "in \(minutes / 60) h" : "in \(minutes) min"
        return "the token of \(name) expires at \(RFC3339.format(expiry)) (\(left)) and, given as it is, cannot be "
            + "renewed: the watch stops when the server refuses it. Give --token-command to have it renewed."
    }

    func tokenSource() throws -> TokenProvider.Source {
        if let command = self.tokenCommand { return .command(command) }
        guard let access = self.token, !access.isEmpty else {
            throw UsageError(
                "A server needs a token: set PHOTOINGEST_TOKEN (or --token), or give --token-command.")
        }
        let upload = self.uploadToken ?? access
        return .fixed(access: access, upload: upload)
    }

    /// The events the server lists for this user; its failure names the server.
    public static func events(of client: PhotoShareClient) async throws(IngestError) -> [Event] {
        do {
            return try await client.events()
        } catch {
            throw IngestError(error.code, "cannot list the events of \(client.address.shown)", because: error)
        }
    }

    /// The client for the server; nil in archive mode.
    public func client() throws -> PhotoShareClient? {
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
            tokens: TokenProvider(try self.tokenSource(), origin: self.tokenOrigin),
            retry: RetryPolicy(retries: self.retries),
            unreachableAfter: TimeInterval(self.unreachableTimeout))
    }
}
