import ArgumentParser
import Configuration

/// How to reach a PhotoShare server and prove who we are, as given on the command line: shared by
/// `run`, `events` and `config show`. Each may come from the config file or the environment too.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "PhotoShare server to upload to (without one, the local archive).",
            valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Base URL of the functions host serving the hash route, when it is not --server.", valueName: "url"))
    var functionsUrl: String?

    @Option(
        help: ArgumentHelp(
            "Access token. Prefer PHOTOINGEST_TOKEN: arguments show in ps.", valueName: "token"
        ))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Upload token (default: the access token). Prefer PHOTOINGEST_UPLOAD_TOKEN.", valueName: "token"))
    var uploadToken: String?

    @Option(
        help: ArgumentHelp(
            "Command printing a fresh token, or JSON {\"access\":…,\"upload\":…}; run again when a token nears expiry.",
            valueName: "command"))
    var tokenCommand: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Concurrent uploads, one HTTP/1.1 connection each (default 6).", valueName: "n")
    )
    var uploads: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Retries for network errors, 5xx and 429, with exponential back-off (default 5).", valueName: "n"))
    var retries: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Give up on a request (and retry it) when the server sends or takes nothing for this many seconds; after Ctrl-C, the uploads in flight get this long to finish (default 30).",
            valueName: "seconds"))
    var stallTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Stop the run when the server has answered nothing (connections refused or timing out) for this many seconds; the files not done are left for the next run (exit status 3; default 30).",
            valueName: "seconds"))
    var unreachableTimeout: Int?

    @Flag(help: "Multiplex uploads over HTTP/2 (often slower for bulk uploads than several HTTP/1.1 connections).")
    var http2 = false

    @Flag(help: "Do not verify the server's TLS certificate. Insecure: a warning is printed.")
    var insecure = false

    /// The settings given here, by key, for the configuration's first provider.
    var given: [String: ConfigContent] {
        var given: [String: ConfigContent] = [:]
        given["server"] = self.server.map { .string($0) }
        given["functions-url"] = self.functionsUrl.map { .string($0) }
        given["token"] = self.token.map { .string($0) }
        given["upload-token"] = self.uploadToken.map { .string($0) }
        given["token-command"] = self.tokenCommand.map { .string($0) }
        given["uploads"] = self.uploads.map { .int($0) }
        given["retries"] = self.retries.map { .int($0) }
        given["stall-timeout"] = self.stallTimeout.map { .int($0) }
        given["unreachable-timeout"] = self.unreachableTimeout.map { .int($0) }
        if self.http2 { given["http2"] = .bool(true) }
        if self.insecure { given["insecure"] = .bool(true) }
        return given
    }
}
