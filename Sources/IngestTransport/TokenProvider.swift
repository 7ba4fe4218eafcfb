import Foundation
import IngestCore

/// The bearer tokens of a run: given once, or fetched by a command whenever they run out.
///
/// A token that expires within five minutes counts as expired. However many transfers need a
/// new token at the same moment, the command runs once and all of them wait for its result.
/// Tokens are never logged, and never passed to the command (it prints them).
public actor TokenProvider {
    public enum Source: Sendable {
        case fixed(access: String, upload: String)
        /// Run with `/bin/sh -c`; prints one token, or a JSON object with `access` and `upload`.
        case command(String)
    }

    struct Tokens: Sendable {
        var access: String
        var upload: String
        func value(_ kind: TokenKind) -> String { kind == .access ? self.access : self.upload }
    }

    /// A token this close to its `exp` is treated as expired.
    public static let refreshMargin: TimeInterval = 300
    /// The token command gets this long to answer.
    static let commandTimeout: TimeInterval = 60

    private let source: Source
    private var current: Tokens?
    private var inFlight: Task<Tokens, any Error>?
    /// How many times the command ran.
    public private(set) var fetches = 0

    public init(_ source: Source) {
        self.source = source
        if case .fixed(let access, let upload) = source { self.current = Tokens(access: access, upload: upload) }
    }

    /// A token of `kind` that is not about to expire (fetching one if needed and possible).
    public func token(_ kind: TokenKind) async throws(IngestError) -> String {
        if let current = self.current, !Self.expiresSoon(current.value(kind)) { return try Self.checked(current.value(kind), kind) }
        if case .fixed = self.source, let current = self.current { return try Self.checked(current.value(kind), kind) }
        return try Self.checked(try await self.fetch().value(kind), kind)
    }

    /// A bearer token is visible ASCII with no spaces (RFC 6750's b64token and JWTs are): anything
    /// else, a line break above all, would change the request's headers. Refused without showing it.
    static func checked(_ token: String, _ kind: TokenKind) throws(IngestError) -> String {
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw IngestError(
                .tokenRefused,
                "the \(kind.rawValue) token holds characters no bearer token has (a space, a line break or "
                    + "non-ASCII); check PHOTOINGEST_TOKEN, PHOTOINGEST_UPLOAD_TOKEN or --token-command")
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
            let tokens = try await task.value
            self.fetches += 1
            self.current = tokens
            return tokens
        } catch {
            throw Self.asIngestError(error)
        }
    }

    static func asIngestError(_ error: any Error) -> IngestError {
        (error as? IngestError) ?? IngestError(.tokenRefused, "the token command failed: \(error)")
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
            throw IngestError(.tokenRefused, "the token command could not start: \(error.localizedDescription)")
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
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let access = object["access"] as? String, !access.isEmpty
            else { throw IngestError(.tokenRefused, "the token command printed JSON without an \"access\" token") }
            return Tokens(access: access, upload: (object["upload"] as? String) ?? access)
        }
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
            throw IngestError(.tokenRefused, "the token command printed no token (one line, or JSON with access and upload)")
        }
        return Tokens(access: text, upload: text)
    }

    /// Whether a JWT's `exp` is within the refresh margin. Tokens that are not JWTs, or carry no
    /// `exp`, never expire as far as the client can tell.
    static func expiresSoon(_ token: String, now: Date = Date()) -> Bool {
        guard let expiry = self.expiry(of: token) else { return false }
        return expiry.timeIntervalSince(now) < self.refreshMargin
    }

    /// The `exp` claim of a JWT (header.payload.signature, base64url).
    public static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let payload = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = (payload["exp"] as? NSNumber)?.doubleValue
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }
}
