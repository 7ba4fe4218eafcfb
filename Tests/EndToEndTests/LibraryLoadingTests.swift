import Foundation
import IngestTesting
import Testing

/// libvips, libjpeg and FFmpeg are opened when a file needs them, and libcurl when a run talks to a server,
/// not when photoingest starts: a run with nothing to decode does not pay the 45 ms of loading them
/// and their 150 libraries, nor an archive run libcurl's 7 ms.
@Suite struct LibraryLoadingTests {
    /// The shared objects the dynamic loader reports opening (`LD_DEBUG=files`, on stderr).
    func opened(_ result: ProcessResult) -> Set<String> {
        Set(
            result.stderr.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: "file=") else { return nil }
                return line[start.upperBound...].split(separator: " ").first.map(String.init)
            })
    }

    func media(_ libraries: Set<String>) -> Set<String> {
        libraries.filter { library in
            ["libvips.so", "libjpeg.so", "libavformat.so"].contains { library.hasPrefix($0) }
        }
    }

    func curl(_ libraries: Set<String>) -> Bool { libraries.contains { $0.hasPrefix("libcurl.so") } }

    #if arch(x86_64)
        @Test(
            "libvips, libjpeg and FFmpeg are opened by the first photo and video, not by --version nor by a re-run of unchanged files"
        )
        func mediaLibrariesOpenOnFirstUse() throws {
            let cli = CommandLine("library-loading")
            let folder = TemporaryFolder("library-loading-media")
            _ = try Fixtures.jpeg(
                in: folder, name: "photo.jpg", tags: ["EXIF:DateTimeOriginal": "2025:09:27 21:39:00"])
            _ = try Fixtures.video(in: folder, name: "clip.mp4", creationTime: "2025-09-27T21:30:00Z")
            let trace = ["LD_DEBUG": "files"]

            let version = try cli.run(["--version"], environment: trace)
            #expect(version.status == 0)
            // The loader's report is there, and names none of them.
            #expect(self.opened(version).contains { $0.hasPrefix("libsqlite3.so") })
            #expect(self.media(self.opened(version)).isEmpty)
            #expect(!self.curl(self.opened(version)))

            let first = try cli.ingest([folder.url], ["--timezone", "UTC"], environment: trace)
            #expect(first.status == 0, "\(first.result.stderr.suffix(2_000))")
            #expect(first.count("uploaded") == 2)
            #expect(self.media(self.opened(first.result)).count == 3)

            let again = try cli.ingest([folder.url], ["--timezone", "UTC"], environment: trace)
            #expect(again.status == 0)
            #expect(again.count("skipped") == 2)
            #expect(self.media(self.opened(again.result)).isEmpty)
            // (libvips's own modules bring libcurl in with them; a run that decodes nothing does not.)
            #expect(!self.curl(self.opened(again.result)), "an archive run opened libcurl")
        }

        @Test("libcurl is opened by a run against a server, and not before")
        func curlOpensForAServer() throws {
            let cli = CommandLine("library-loading-curl")
            let folder = TemporaryFolder("library-loading-curl")
            // Nothing listens on the port: the run fails to reach the server, after opening libcurl to try.
            let run = try cli.run(
                [
                    "run", folder.url.path, "--server", "http://127.0.0.1:9/", "--unreachable-timeout", "1",
                    "--retries", "0",
                ],
                environment: ["LD_DEBUG": "files", "PHOTOINGEST_TOKEN": "t"])
            #expect(run.status != 0)
            #expect(self.curl(self.opened(run)), "\(run.stderr.suffix(1_000))")
        }
    #endif
}
