import Foundation

extension RunSetting {
    /// How to reach a PhotoShare server and prove who we are.
    static let server: [RunSetting] = [
        .text(
            "server", \.connection.serverURL, valueName: "url",
            help: "PhotoShare server to upload to (without one, the local archive)."),
        .text(
            "functions-url", \.connection.functionsUrl, valueName: "url",
            help: "Base URL of the functions host serving the hash route, when it is not --server."),
        .text(
            "token", \.connection.token, valueName: "token",
            help: "Access token. Prefer PHOTOINGEST_TOKEN: arguments show in ps.", secret: true),
        .text(
            "upload-token", \.connection.uploadToken, valueName: "token",
            help: "Upload token (default: the access token). Prefer PHOTOINGEST_UPLOAD_TOKEN.", secret: true),
        .text(
            "token-command", \.connection.tokenCommand, valueName: "command",
            help:
                "Command printing a fresh token, or JSON {\"access\":…,\"upload\":…}; run again when a token nears expiry."
        ),
        .number(
            "uploads", \.connection.uploads, valueName: "n",
            help: "Concurrent uploads, one HTTP/1.1 connection each (default \(ServerSettings().uploads)).",
            allowed: 1...,
            problem: "must be at least 1"),
        .number(
            "retries", \.connection.retries, valueName: "n",
            help:
                "Retries for network errors, 5xx and 429, with exponential back-off (default \(ServerSettings().retries)).",
            allowed: 0...,
            problem: "cannot be negative"),
        .number(
            "stall-timeout", \.connection.stallTimeout, valueName: "seconds",
            help:
                "Give up on a request (and retry it) when the server sends or takes nothing for this many seconds; after Ctrl-C, the uploads in flight finish while their bytes keep moving, and are cut off once quiet this long (default \(ServerSettings().stallTimeout)).",
            allowed: 1..., problem: "must be at least 1 second"),
        .number(
            "unreachable-timeout", \.connection.unreachableTimeout, valueName: "seconds",
            help:
                "Stop the run when the server has answered nothing (connections refused or timing out) for this many seconds; the files not done are left for the next run (exit status 3; default \(ServerSettings().unreachableTimeout); for watch, a week).",
            allowed: 1..., problem: "must be at least 1 second"),
        .flag(
            "http2", \.connection.http2,
            help: "Multiplex uploads over HTTP/2 (often slower for bulk uploads than several HTTP/1.1 connections)."),
        .flag(
            "insecure", \.connection.insecure,
            help: "Do not verify the server's TLS certificate. Insecure: a warning is printed."),
    ]
}
