import Foundation
import IngestCore
import IngestTesting
import IngestTransport
import Testing

/// Bearer tokens as a run gets them: given once, or printed by `--token-command`, which runs
/// again only when a token is near its expiry and only once however many transfers wait for it.
@Suite struct TokenProviderTests {
    let folder = TemporaryFolder("tokens")
    /// The token command appends a line here each time it runs: how often it ran, seen from outside.
    var counter: URL { self.folder.appending("runs") }

    /// A JWT for `user` expiring `expiresIn` seconds from now.
    static func jwt(_ user: String, expiresIn: TimeInterval) -> String {
        UnsignedToken.make(user, expiresIn: expiresIn)
    }

    /// A token command: a shell script that counts its runs, waits `sleep` seconds, then runs
    /// `body` (which prints the token). `$n` in `body` is this run's number, from 1.
    func command(_ body: String, sleep: Double = 0) throws -> TokenProvider.Source {
        let script = self.folder.appending("token-command-\(UUID().uuidString.prefix(8)).sh")
        let text = """
            echo run >> '\(self.counter.path)'
            n=$(( $(wc -l < '\(self.counter.path)') ))
            sleep \(sleep)
            \(body)

            """
        try Data(text.utf8).write(to: script)
        return .command("sh '\(script.path)'")
    }

    /// How many times the command ran, by its own count.
    var runs: Int {
        ((try? String(contentsOf: self.counter, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test("Fixed tokens are returned as given, each for its kind, and never refreshed")
    func fixedTokens() async throws {
        // Even a token that has expired: with no command there is nothing better to offer, and the server decides.
        let stale = Self.jwt("alice", expiresIn: -60)
        let provider = TokenProvider(.fixed(access: stale, upload: "upload-token"))
        #expect(try await provider.token(.access) == stale)
        #expect(try await provider.token(.upload) == "upload-token")
        #expect(try await provider.replacement(for: stale, kind: .access) == nil)
        #expect(await provider.fetches == 0)
    }

    @Test("The client reads a JWT's exp claim, and sees no expiry in a token that is not a JWT")
    func expiryOfAToken() throws {
        let expiry = try #require(TokenProvider.expiry(of: Self.jwt("alice", expiresIn: 3_600)))
        #expect(abs(expiry.timeIntervalSinceNow - 3_600) < 5)
        #expect(TokenProvider.expiry(of: "opaque-token") == nil)
        #expect(TokenProvider.expiry(of: "a.b.c") == nil)
    }

    @Test("A command's token is fetched once and reused while it is far from expiry")
    func reusesAFreshToken() async throws {
        let token = Self.jwt("alice", expiresIn: 3_600)
        let provider = TokenProvider(try self.command("echo '\(token)'"))
        for _ in 0..<5 {
            #expect(try await provider.token(.access) == token)
            #expect(try await provider.token(.upload) == token)
        }
        #expect(await provider.fetches == 1)
        #expect(self.runs == 1)
    }

    @Test("A 2-minute token is used until 24 s before it expires: over 10 minutes of requests the command runs 7 times")
    func shortLivedTokens() async throws {
        // The command issues tokens living 120 s from the (simulated) time it reads from a file,
        // as a deployment issuing short-lived tokens would; the provider's clock reads the same file.
        let now = self.folder.appending("now")
        let start = Int(Date().timeIntervalSince1970)
        try Data("\(start)".utf8).write(to: now)
        let body = #"""
            payload=$(printf '{"sub":"alice","exp":%d}' $(( $(cat '\#(now.path)') + 120 )) | base64 | tr '+/' '-_' | tr -d '=\n')
            echo "eyJhbGciOiJIUzI1NiJ9.$payload.c2ln"
            """#
        let clock: @Sendable () -> Date = {
            let text = (try? String(contentsOf: now, encoding: .utf8)) ?? ""
            return Date(timeIntervalSince1970: TimeInterval(Int(text) ?? 0))
        }
        let provider = TokenProvider(try self.command(body), clock: clock)
        var leastLeft = TimeInterval.infinity
        for second in 0...600 {
            try Data("\(start + second)".utf8).write(to: now)
            let token = try await provider.token(.access)
            let expiry = try #require(TokenProvider.expiry(of: token))
            leastLeft = min(leastLeft, expiry.timeIntervalSince(clock()))
        }
        // Fetched at 0, 96, 192, 288, 384, 480 and 576 s: each kept for 96 of its 120 s.
        #expect(await provider.fetches == 7)
        #expect(self.runs == 7)
        #expect(leastLeft > 20, "a token was handed out with \(leastLeft) s left")
        #expect(TokenProvider.refreshMargin(life: 120) == 24)
        #expect(TokenProvider.refreshMargin(life: 4 * 60) == 48)
        #expect(TokenProvider.refreshMargin(life: 3_600) == 300)
    }

    @Test("A token entering the 5-minute buffer is replaced at once: no request carries a 302 s token past 300 s")
    func bufferIsExpiry() async throws {
        // The command's first token lives 302 s, every later one an hour, from the simulated time.
        let now = self.folder.appending("now")
        let count = self.folder.appending("count")
        let start = Int(Date().timeIntervalSince1970)
        try Data("\(start)".utf8).write(to: now)
        let body = #"""
            n=$(cat '\#(count.path)' 2>/dev/null || echo 0); echo $((n + 1)) > '\#(count.path)'
            life=3600; [ "$n" = 0 ] && life=302
            payload=$(printf '{"sub":"alice","exp":%d}' $(( $(cat '\#(now.path)') + life )) | base64 | tr '+/' '-_' | tr -d '=\n')
            echo "eyJhbGciOiJIUzI1NiJ9.$payload.c2ln"
            """#
        let clock: @Sendable () -> Date = {
            let text = (try? String(contentsOf: now, encoding: .utf8)) ?? ""
            return Date(timeIntervalSince1970: TimeInterval(Int(text) ?? 0))
        }
        let provider = TokenProvider(try self.command(body), clock: clock)
        var carried: [TimeInterval] = []
        for second in 0...30 {
            try Data("\(start + second)".utf8).write(to: now)
            for _ in 0..<9 {
                let token = try await provider.token(.upload)
                carried.append(try #require(TokenProvider.expiry(of: token)).timeIntervalSince(clock()))
            }
        }
        // Requests at 0 and 1 s carry the first token (302 and 301 s left); at 2 s it has 300 s
        // left, inside the buffer, and the hour's token replaces it.
        #expect(
            carried.filter { $0 <= 300 }.isEmpty,
            "\(carried.filter { $0 <= 300 }.count) requests carried a token inside the buffer")
        #expect(carried.filter { $0 > 3_000 }.count == carried.count - 18)
        #expect(await provider.fetches == 2)
    }

    @Test("A token that had expired when fetched is kept 10 s, not fetched again for every request")
    func expiredTokenIsNotFetchedForEveryRequest() async throws {
        let stale = Self.jwt("alice", expiresIn: -60)
        let provider = TokenProvider(try self.command("echo '\(stale)'"))
        for _ in 0..<20 { #expect(try await provider.token(.access) == stale) }
        #expect(await provider.fetches == 1)
    }

    @Test("Twenty transfers asking at once while the command runs share one run of it (single flight)")
    func singleFlight() async throws {
        let token = Self.jwt("alice", expiresIn: 3_600)
        let provider = TokenProvider(try self.command("echo '\(token)'", sleep: 0.3))
        let tokens: [String] = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask { try await provider.token(index.isMultiple(of: 2) ? .access : .upload) }
            }
            var tokens: [String] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }
        #expect(tokens == Array(repeating: token, count: 20))
        #expect(await provider.fetches == 1)
        #expect(self.runs == 1)
    }

    @Test("A command printing {\"access\": …, \"upload\": …} gives each kind its own token, from one run")
    func jsonTokens() async throws {
        let access = Self.jwt("alice-access", expiresIn: 3_600)
        let upload = Self.jwt("alice-upload", expiresIn: 3_600)
        let provider = TokenProvider(try self.command(#"echo '{"access": "\#(access)", "upload": "\#(upload)"}'"#))
        #expect(try await provider.token(.access) == access)
        #expect(try await provider.token(.upload) == upload)
        #expect(await provider.fetches == 1)

        // Without "upload", the access token is good for both.
        let single = TokenProvider(try self.command(#"echo '{"access": "\#(access)"}'"#))
        #expect(try await single.token(.upload) == access)
    }

    @Test("A token holding a line break, a space or non-ASCII is refused before any request, and not shown")
    func tokensThatWouldBreakAHeader() async throws {
        // From JSON, a line break is one escaped "\n" away: it would write a header line of its own.
        let provider = TokenProvider(try self.command(#"echo '{"access": "secret-part\r\nX-Injected: 1"}'"#))
        let error = await #expect(throws: IngestError.self) { try await provider.token(.access) }
        #expect(error?.code == .tokenRefused)
        #expect(error?.message.contains("secret-part") == false, "\(error?.message ?? "")")
        for bad in ["two words", "caf\u{E9}", ""] {
            let fixed = TokenProvider(.fixed(access: bad, upload: bad))
            await #expect(throws: IngestError.self, "\(bad.debugDescription)") { try await fixed.token(.upload) }
        }
    }

    @Test("After a 401 a command gives a fresh token; one already replaced by another transfer is not fetched twice")
    func replacementAfterRefusal() async throws {
        // Tokens that are not JWTs never look expired, so only a refusal makes the command run again.
        let provider = TokenProvider(try self.command(#"echo "token-$n""#))
        let first = try await provider.token(.access)
        #expect(first == "token-1")
        #expect(try await provider.replacement(for: first, kind: .access) == "token-2")
        #expect(try await provider.token(.access) == "token-2")
        // A second transfer refused with the first token gets the replacement without another run.
        #expect(try await provider.replacement(for: first, kind: .access) == "token-2")
        #expect(await provider.fetches == 2)
        #expect(self.runs == 2)
    }

    @Test("A command that fails or prints no token is an error that names the command, never what it printed")
    func failuresKeepTheSecret() async throws {
        let secret = "s3cr3t-" + UUID().uuidString
        let cases: [(body: String, message: String)] = [
            ("echo '\(secret)'; exit 1", "the token command exited with status 1"),
            ("true", "the token command printed no token (one line, or JSON with access and upload)"),
            (
                "echo '\(secret) \(secret)'",
                "the token command printed no token (one line, or JSON with access and upload)"
            ),
            (#"echo '{"upload": "\#(secret)"}'"#, #"the token command printed JSON without an "access" token"#),
        ]
        for (body, message) in cases {
            let provider = TokenProvider(try self.command(body))
            let error = await #expect(throws: IngestError.self) { try await provider.token(.access) }
            #expect(error?.code == .tokenRefused, "\(body)")
            #expect(error?.description == message, "\(body)")
            #expect(error?.description.contains(secret) == false)
            #expect(await provider.fetches == 0)
        }
        #expect(self.runs == cases.count)
    }

    @Test("A failed fetch is not remembered: the next request runs the command again")
    func failureIsNotCached() async throws {
        // Fails on its first run only, as a command whose login expired and was renewed would.
        let provider = TokenProvider(try self.command(#"if [ "$n" = 1 ]; then exit 3; fi; echo "token-$n""#))
        await #expect(throws: IngestError.self) { try await provider.token(.access) }
        #expect(try await provider.token(.access) == "token-2")
        #expect(await provider.fetches == 1)
        #expect(self.runs == 2)
    }
}
