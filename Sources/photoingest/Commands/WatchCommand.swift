import ArgumentParser
import IngestApp

/// `photoingest watch`: a run that does not end, for live events.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Ingest what the folders hold, then every new photo as soon as it is written.",
        discussion: """
            Does what `run` does with the same options, then keeps watching the folders (inotify) and \
            ingests each new or changed file once it is complete: closed after writing, or moved in. A file \
            seen being written waits for its close, however long its writer stalls; one its writer keeps \
            open and quiet for 30 times --settle (at least a minute) is read only if its own structure is \
            whole (a JPEG's end marker, a video's index), else held and said as waiting. One found in a new \
            folder, its writer unseen, is read once its size and time have not changed for --settle and it \
            is whole. New subfolders are watched as they appear, before they are read. A file is never read \
            while it is being written. Ctrl-C or SIGTERM ends it with status 0, failed files included.

            On a share (NFS, SMB/CIFS, a FUSE mount, 9p, …) inotify sees only this machine's writes: what \
            the NAS or another PC writes there would never be seen, so folders there are listed every \
            --poll-interval as well (the watch says which at its start). --poll lists every folder so, \
            --no-poll none.

            When the kernel drops events (its queue overflowed) or a watched folder is replaced, the folders \
            are read again, which costs what a re-run costs: the catalog knows what is done, so a restart \
            (after a crash, or a reboot) loses nothing and redoes nothing. Each file's outcome is in the \
            catalog as soon as it is known.

            The server's events and each event's hash set are fetched again every --refresh (what phones \
            uploaded meanwhile is then a duplicate, not an upload); when the events changed (a new one, \
            another window), the watch starts again with them. SIGHUP reads the config file again and \
            starts again with it (a config that cannot be used is said, and the old settings kept). A server \
            that goes away is waited for: unless --unreachable-timeout is given, for up to a week.

            --stats logs, beside the counts, how long files waited from complete to done (p50 and p95) and \
            how many are on their way. Ctrl-C or SIGTERM ends it as it ends `run`: the files in flight \
            finish, the catalog commits, the summary is printed. Each run the watch starts again ends with \
            its own summary (it is a run in the catalog); with --json that is one line of JSON per run, \
            and a run that ended to start again says why in "restartingFor". The closing line's waits \
            cover the whole watch.

            Examples:
              photoingest watch /srv/ftp/camera-a --event "Gala" \\
                  --from 2025-12-31T18:00:00Z --until 2026-01-01T04:00:00Z
              PHOTOINGEST_TOKEN=… photoingest watch /srv/hotfolder \\
                  --server https://photoshare.example.com --settle 3s --stats 1m
            """)

    @OptionGroup var arguments: RunArguments

    @Option(help: .setting("settle"))
    var settle: String?

    @Option(help: .setting("refresh"))
    var refresh: String?

    @Flag(help: .setting("poll"))
    var poll = false

    @Flag(help: .setting("no-poll"))
    var noPoll = false

    @Option(help: .setting("poll-interval"))
    var pollInterval: String?

    func run() async throws {
        let (arguments, given) = (self.arguments, self.given)
        let settings = try await arguments.settings(more: given)
        // SIGHUP reads the settings again as they are read now: the flags, the environment, the file.
        let reload: @Sendable () async throws -> Settings = { try await arguments.settings(more: given) }
        let status = try await IngestRun(settings: settings, watching: true, reload: reload).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
