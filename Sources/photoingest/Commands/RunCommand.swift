import ArgumentParser
import IngestApp

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Ingest every photo under the given files and folders.",
        discussion: """
            Supported: photos in JPEG, HEIC/HEIF, AVIF, WebP, PNG, TIFF and JPEG XL; camera raw in DNG, \
            CR2, CR3, NEF, ARW, RAF, RW2, ORF and PEF (thumbnails from the largest preview they embed); \
            videos in MP4/M4V, QuickTime MOV and 3GPP (streamed, never held in memory; thumbnails from a \
            frame near 1 s). Recognised by their content, not their name. Other files are reported as \
            skipped, with the reason.

            Capture time, first that holds: an XMP sidecar beside the file (IMG_1.xmp or IMG_1.CR2.xmp, \
            where an editor keeps a corrected time), the EXIF or QuickTime time with its offset or the zone \
            its GPS fix or position gives, else --timezone (or the offset a Google Takeout JSON's time gives); \
            with no time in the file, the GPS time, a Google Takeout JSON's time or an iCloud export's \
            Photo Details.csv row, its name (--no-name-dates) or its modification time (--undated). The \
            report says which, per file.

            Zip files are read in place, never unpacked. In a Google Takeout (give all its parts), each file \
            is paired with its JSON by the names Takeout writes; photos in Google Photos' bin are left out \
            (--include-trashed), and the JSON's title is the name a photo is kept under.

            With no server, photos go into a local archive: each original stored once by its SHA-256, with \
            500 px and 200 px JPEG thumbnails and an SQLite index of which event holds which photo.

            With --server, photos go to a PhotoShare server: for every event the server lists (or those \
            named with --event), the photos taken inside its window that it does not hold yet are uploaded \
            with their thumbnails. All events are done in one pass: each file is read once, and a photo \
            inside several windows goes to each. Tokens come from PHOTOINGEST_TOKEN and \
            PHOTOINGEST_UPLOAD_TOKEN, or from --token-command.

            Every option may also come from a variable PHOTOINGEST_<OPTION> (--near-edge is \
            PHOTOINGEST_NEAR_EDGE) or a YAML file (--config; near-edge: 30); flags win over variables, \
            which win over the file. `photoingest config show` prints the settings and their sources.

            A file that does not decode is not tried again while it is unchanged (--retry-failed to force \
            it); it is counted among the known broken files, not as this run's failure.

            Exit status: 0 when every file ended well (stored or uploaded, duplicate, outside, skipped or known \
            broken), 1 when some failed in this run, 2 for a usage or configuration error, 3 when the \
            server could not be used (it refused the token, or answered nothing for \
            --unreachable-timeout; the files not done are left for the next run), 5 when --max-duration \
            stopped it (the summary says how many files are left; the next run goes on), 6 when a folder \
            given yielded no file while the catalog knows files under it (an unmounted share; --allow-empty), 75 when another run holds the catalog or \
            archive and --no-wait was given, 130 when stopped by Ctrl-C (the first lets the files in \
            flight finish, the second stops at once).

            Examples:
              photoingest run ~/Pictures/2025-party
              photoingest run /mnt/card --event "Birthday Party" \\
                  --from 2025-09-27T21:00:00Z --until 2025-09-28T05:00:00Z \\
                  --timezone America/Los_Angeles
              photoingest run ~/Pictures/2025 --events weekend.csv  # name,start,end
              photoingest run photos/ --dry-run --report - --quiet
              photoingest run photos/ --archive /srv/archive \\
                  --catalog /srv/catalog.sqlite --json
              PHOTOINGEST_TOKEN=… photoingest run /mnt/card \\
                  --server https://photoshare.example.com
              photoingest run /mnt/card --server https://photoshare.example.com \\
                  --event 26696588-5edb-4b1e-8256-77fcdf7c089d \\
                  --token-command 'pass show photoshare/token' --uploads 8
            """)

    @OptionGroup var arguments: RunArguments

    @Option(help: .setting("max-duration"))
    var maxDuration: String?

    @Flag(help: .setting("allow-empty"))
    var allowEmpty = false

    func run() async throws {
        let status = try await IngestRun(settings: try await self.arguments.settings(more: self.given)).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
