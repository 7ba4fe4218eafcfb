import Foundation
import IngestCore

/// The bearer tokens of a run: given once, or fetched by a command whenever they run out.
///
/// A fetched token is replaced as soon as it enters the API's 5-minute buffer (it then counts as
/// expired); only a token that was already that short-lived when fetched is kept for four fifths
/// of its life (see `isDue(_:fetched:now:)`). However many transfers need a new token at
/// the same moment, the command runs once and all of them wait for its result. Tokens are never
/// logged, and never passed to the command (it prints them).
public actor TokenProvider {
    public enum Source: Sendable {
        case fixed(access: String, upload: String)
        /// Run with `/bin/sh -c`; prints one token, or a JSON object with `access` and `upload`.
        case command(String)
    }

    /// Where each token was given, as a message about a token names it: `PHOTOINGEST_TOKEN`,
    /// `--upload-token`, `token in /etc/photoingest.yaml`, or the token command.
    public struct Origin: Sendable {
        public var access: String
        public var upload: String

        public init(access: String, upload: String) {
            self.access = access
            self.upload = upload
        }

        /// Tokens given on the command line, or printed by the command.
        static func of(_ source: Source) -> Origin {
            switch source {
            case .fixed: Origin(access: "--token", upload: "--upload-token")
            case .command: Origin(access: "--token-command", upload: "--token-command")
            }
        }

        public func of(_ kind: TokenKind) -> String { kind == .access ? self.access : self.upload }
    }

    struct Tokens: Sendable {
        var access: String
        var upload: String
        /// When the command printed them: a token is kept for a share of the life it had then.
        var fetched = Date.distantPast
        func value(_ kind: TokenKind) -> String { kind == .access ? self.access : self.upload }
    }

    /// The API's buffer: a token that expires within it counts as expired.
    public static let longestMargin: TimeInterval = 300
    /// A fetched token is kept at least this long, even one that had expired already (the server
    /// then refuses it and the 401 fetches another): the command never runs for every request.
    static let shortestUse: TimeInterval = 10
    /// The token command gets this long to answer.
    static let commandTimeout: TimeInterval = 60

    private let source: Source
    /// Where the tokens were given, named by every message about one.
    public nonisolated let origin: Origin
    private let clock: @Sendable () -> Date
    private var current: Tokens?
    private var inFlight: Task<Tokens, any Error>?
    /// How many times the command ran.
    public private(set) var fetches = 0

    /// - Parameters:
    ///   - origin: where the tokens were given (default: the flags, or the command).
    ///   - clock: the time now; tests pass one that they move on.
    public init(_ source: Source, origin: Origin? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.source = source
        self.origin = origin ?? .of(source)
        self.clock = clock
        if case .fixed(let access, let upload) = source { self.current = Tokens(access: access, upload: upload) }
    }

    /// A token of `kind` that is not about to expire (fetching one if needed and possible).
    public func token(_ kind: TokenKind) async throws(IngestError) -> String {
        if let current = self.current {
            if case .fixed = self.source { return try self.checked(current.value(kind), kind) }
            if !Self.isDue(current.value(kind), fetched: current.fetched, now: self.clock()) {
                return try self.checked(current.value(kind), kind)
            }
        }
        return try self.checked(try await self.fetch().value(kind), kind)
    }

    /// A bearer token is visible ASCII with no spaces (RFC 6750's b64token and JWTs are): anything
    /// else, a line break above all, would change the request's headers. Refused without showing it.
    func checked(_ token: String, _ kind: TokenKind) throws(IngestError) -> String {
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw IngestError(
                .tokenRefused,
                "the \(kind.rawValue) token holds characters no bearer token has (a space, a line break or "
                    + "non-ASCII); check \(self.origin.of(kind))")
        }
        return token
    }

    /// After a 401 for `refused`: a fresh token, or nil when none can be had (fixed tokens).
    /// If another transfer already replaced the refused token, its replacement is returned.
    public func replacement(for refused: String, kind: TokenKind) async throws(IngestError) -> String? {
        guard case .command = self.source else { return nil }
        if let current = self.current, current.value(kind) != refused { return current.value(kind) }
        return try await self.fetch().value(kind)
    }

    private func fetch() async throws(IngestError) -> Tokens {
        if let inFlight = self.inFlight {
            do { return try await inFlight.value } catch { throw Self.asIngestError(error) }
        }
        guard case .command(let command) = self.source else {
            throw IngestError(.tokenRefused, "no token command to fetch a new token with")
        }
        // The command blocks while it runs: give it a thread of its own, not one of the cooperative pool's.
        let task = Task.detached {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try Self.run(command) }) }.start()
            }
        }
        self.inFlight = task
        defer { self.inFlight = nil }
        do {
            var tokens = try await task.value
            tokens.fetched = self.clock()
            self.fetches += 1
            self.current = tokens
            return tokens
        } catch {
            throw Self.asIngestError(error)
        }
    }

    static func asIngestError(_ error: any Error) -> IngestError {
        (error as? IngestError) ?? IngestError(.tokenRefused, "the token command failed", because: error)
    }

    /// Runs the token command and parses what it printed. Its output is never shown: it is a secret.
    static func run(_ command: String) throws -> Tokens {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw IngestError(.tokenRefused, "the token command could not start", because: error)
        }
        let deadline = Date().addingTimeInterval(self.commandTimeout)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw IngestError(.tokenRefused, "the token command did not finish within \(Int(self.commandTimeout)) s")
        }
        guard process.terminationStatus == 0 else {
            throw IngestError(.tokenRefused, "the token command exited with status \(process.terminationStatus)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            guard let printed = try? JSONDecoder().decode(PrintedTokens.self, from: Data(text.utf8)),
                let access = printed.access, !access.isEmpty
            else { throw IngestError(.tokenRefused, "the token command printed JSON without an \"access\" token") }
            return Tokens(access: access, upload: printed.upload ?? access)
        }
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
            throw IngestError(
                .tokenRefused, "the token command printed no token (one line, or JSON with access and upload)")
        }
        return Tokens(access: text, upload: text)
    }

    /// How long before its expiry a token that had `life` seconds left when fetched is replaced:
    /// a fifth of that life, at most five minutes. The margin covers a request sent just before
    /// the replacement and checked by the server a little later, and a small clock difference
    /// between the issuer and this machine; a larger one ends in a 401, which fetches a new token
    /// anyway. A 2-minute token is kept 96 s, a 4-minute one 192 s, a 1-hour one 55 minutes: the
    /// command runs a handful of times per run, not for every wave of requests.
    public static func refreshMargin(life: TimeInterval) -> TimeInterval {
        min(self.longestMargin, max(0, life) / 5)
    }

    /// Whether a token fetched at `fetched` is due to be replaced. The API counts a token that
    /// expires within 5 minutes as expired: one fetched with more life than that is replaced the
    /// moment it enters those 5 minutes. One fetched with less (the issuer hands out short-lived
    /// tokens) is kept for four fifths of its life, and at least 10 s. Tokens that are not JWTs,
    /// or carry no `exp`, never expire as far as the client can tell.
    static func isDue(_ token: String, fetched: Date, now: Date) -> Bool {
        guard let expiry = self.expiry(of: token) else { return false }
        let life = expiry.timeIntervalSince(fetched)
        let replaceAt =
            life > self.longestMargin
            ? expiry.addingTimeInterval(-self.longestMargin)
            : max(expiry.addingTimeInterval(-self.refreshMargin(life: life)), fetched + self.shortestUse)
        return now >= replaceAt
    }

    /// The `exp` claim of a JWT (header.payload.signature, base64url).
    public static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let exp = (try? JSONDecoder().decode(Claims.self, from: data))?.exp
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    /// What a token command may print as JSON: the access token, and the upload token if it differs.
    struct PrintedTokens: Decodable {
        var access: String?
        var upload: String?
    }

    /// The one claim of a JWT's payload the client reads: when it expires (seconds since 1970).
    struct Claims: Decodable {
        var exp: Double?
    }
}
