import ArgumentParser
import Configuration
import IngestApp

/// How to reach a PhotoShare server and prove who we are, as given on the command line: shared by
/// `run`, `events` and `config show`. Each may come from the config file or the environment too.
struct ServerOptions: ParsableArguments {
    @Option(help: .setting("server"))
    var server: String?

    @Option(help: .setting("functions-url"))
    var functionsUrl: String?

    @Option(help: .setting("token"))
    var token: String?

    @Option(help: .setting("upload-token"))
    var uploadToken: String?

    @Option(help: .setting("token-command"))
    var tokenCommand: String?

    @Option(parsing: .unconditional, help: .setting("uploads"))
    var uploads: Int?

    @Option(parsing: .unconditional, help: .setting("retries"))
    var retries: Int?

    @Option(parsing: .unconditional, help: .setting("stall-timeout"))
    var stallTimeout: Int?

    @Option(parsing: .unconditional, help: .setting("unreachable-timeout"))
    var unreachableTimeout: Int?

    @Flag(help: .setting("http2"))
    var http2 = false

    @Flag(help: .setting("insecure"))
    var insecure = false
}
