import ArgumentParser
import IngestApp

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Prove that the destination still holds every file the catalog says it was given.",
        discussion: """
            A run's summary says what it sent; verify checks that it is still there. Against a server \
            (--server, with the tokens of `run`), each event's hash set is fetched once, through the \
            API's own routes, and every file the catalog holds as uploaded or as a duplicate there is \
            looked up in it. Against the archive (the default, or --archive), every original is read \
            again and hashed on every core (--jobs), and its thumbnails looked for.

            What is missing is named (path, event, SHA-256) and marked in the catalog, so that the next \
            `run` over the same folders sends it again (its report says why). An original in the \
            archive whose bytes changed is moved to the archive's damaged/ folder and let go of by its \
            index; the next run stores it again from its source, where that still exists. Held files \
            are counted, not listed.

            The catalog, the archive and the server come from the flags, PHOTOINGEST_* variables and \
            the config file, as for `run`.

            Exit status: 0 when everything is held, 4 when something is missing or damaged (marked \
            for the next run), 2 for a usage or configuration error (no catalog, no archive), 3 when \
            the server could not be used, 75 when a run holds the catalog or archive and --no-wait \
            was given.

            Examples:
              photoingest verify
              photoingest verify --archive /srv/archive \\
                  --catalog /srv/catalog.sqlite --json
              PHOTOINGEST_TOKEN=… photoingest verify \\
                  --server https://photoshare.example.com
            """)

    @Option(help: .setting("archive"))
    var archive: String?

    @Option(help: .setting("catalog"))
    var catalog: String?

    @Option(parsing: .unconditional, help: .setting("jobs"))
    var jobs: Int?

    @Flag(help: .setting("no-wait"))
    var noWait = false

    @Flag(help: "Print what was found as one JSON object: per-event counts, the missing and damaged ones.")
    var json = false

    @Flag(help: .setting("quiet"))
    var quiet = false

    @OptionGroup var configFile: ConfigFileOption

    @OptionGroup(title: "PhotoShare server")
    var connection: ServerOptions

    func run() async throws {
        let given = self.given.merging(self.connection.given) { $1 }
        let settings = try await Settings.resolve(given: given, configPath: self.configFile.config)
        let status = await VerifyRun(settings: settings).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
