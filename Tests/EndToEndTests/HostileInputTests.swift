import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// The built command over `scripts/make-hostile-corpus`: broken, lying, hostile and oddly named
/// input, and folders too big to list twice.
@Suite struct HostileInputTests {
    struct Expected: Decodable {
        var path: String
        var status: String
        var reason: String?
        var code: String?
    }

    struct Manifest: Decodable {
        var files: [Expected]
        var largeDir: Int
        /// Whether the HEIC cases are in: they are cut from a real iPhone file of the shared corpus.
        var heic: Bool
    }

    /// Makes the corpus in `folder` and reads its manifest.
    static func make(in folder: TemporaryFolder, largeDir: Int = 0) throws -> Manifest {
        let corpus = folder.appending("hostile")
        let result = try runProgram(
            TestEnvironment.repository.appendingPathComponent("scripts/make-hostile-corpus").path,
            [corpus.path, "--real", TestEnvironment.realCorpus.path, "--large-dir", String(largeDir)])
        try #require(result.status == 0, "make-hostile-corpus failed: \(result.stderr)")
        return try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: corpus.appendingPathComponent("manifest.json")))
    }

    /// Root reads files whatever their permissions: the unreadable cases need the run without
    /// the capabilities that allow it.
    static var withoutRootsOverride: [String] {
        getuid() == 0
            ? [
                "/usr/bin/setpriv", "--inh-caps=-dac_override,-dac_read_search",
                "--bounding-set=-dac_override,-dac_read_search",
            ]
            : []
    }

    /// `bytes` (a path relative to the corpus's files) as the report spells it.
    static func reported(_ root: URL, _ hex: String) -> String {
        var bytes = Array(root.path.utf8) + [0x2F]
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return PathBytes.unicode(PathBytes.string(bytes))
    }

    @Test(
        "Each hostile input ends with exactly the outcome it must, with its reason; the rest of the run is unaffected")
    func everyHostileFileAccountedFor() throws {
        var cli = CommandLine("hostile")
        cli.launcher = Self.withoutRootsOverride
        let manifest = try Self.make(in: cli.folder)
        try #require(manifest.heic, "the HEIC cases are missing: no HEIC under \(TestEnvironment.realCorpus.path)")
        let files = cli.folder.appending("hostile/files")
        defer { chmod(files.appendingPathComponent("locked").path, 0o755) }

        let run = try cli.ingest([files])
        #expect(!run.result.timedOut, "the run hung")
        #expect(run.status == 1, "failures must exit 1, not crash: \(run.result.stderr.suffix(2_000))")
        #expect(run.entries.count == manifest.files.count, "one report line per entry")
        var byPath: [String: [FileLine]] = [:]
        for entry in run.entries { byPath[entry.path, default: []].append(entry) }
        for expected in manifest.files {
            let path = Self.reported(files, expected.path)
            let entries = byPath[path] ?? []
            try #require(entries.count == 1, "\(path): \(entries.count) outcomes")
            let entry = entries[0]
            #expect(entry.status.rawValue == expected.status, "\(path): \(entry)")
            let reason = entry.error ?? entry.reason ?? ""
            if expected.status != "uploaded" { #expect(!reason.isEmpty, "\(path) has no reason") }
            if let code = expected.code { #expect(entry.errorCode == code, "\(path): \(entry)") }
            if let part = expected.reason { #expect(reason.contains(part), "\(path): \(reason)") }
        }
        // What was stored is whole: every original in the archive hashes to its name.
        let uploaded = manifest.files.filter { $0.status == "uploaded" }.count
        let originals = TestEnvironment.files(under: cli.archive.appendingPathComponent("originals"))
        #expect(originals.count == uploaded)
        for original in originals {
            #expect(try Fixtures.sha256sum(original) == original.deletingPathExtension().lastPathComponent)
        }
        // The text report names an awkward failed file on one line, its stray bytes escaped.
        let names = try cli.run([
            "run", files.appendingPathComponent("names").path, "--archive", cli.archive.path, "--catalog",
            cli.folder.appending("names.sqlite").path,
        ])
        #expect(names.stdout.contains("/names/cut\\nshort \\xe9.jpg: "), "\(names.stdout)")

        // The next run tries again the failures that may go another time (unreadable files), and
        // nothing else: those in the files' own bytes are known broken while they are unchanged.
        let inTheBytes = run.entries.filter {
            $0.status == .failed && ["decodeFailed", "tooManyPixels"].contains($0.errorCode ?? "")
        }.count
        let again = try cli.ingest([files])
        #expect(inTheBytes > 0)
        #expect(again.count("failed") == run.count("failed") - inTheBytes)
        #expect(again.summary?.event?.knownBroken == inTheBytes)
        #expect(again.count("uploaded") == 0)
        ReliabilityFigure.record(
            "hostile and broken input",
            [
                "entries": manifest.files.count, "stored": uploaded, "failed": run.count("failed"),
                "skipped": run.count("skipped"),
            ])
    }

    @Test("A folder of many entries (50,000 by default; PHOTOINGEST_LARGE_DIR to change) ends with one outcome each")
    func aFolderWithManyEntries() throws {
        let count = Int(ProcessInfo.processInfo.environment["PHOTOINGEST_LARGE_DIR"] ?? "") ?? 50_000
        let cli = CommandLine("large-dir")
        let manifest = try Self.make(in: cli.folder, largeDir: count)
        #expect(manifest.largeDir == count)
        let run = try cli.ingest([cli.folder.appending("hostile/large")])
        #expect(!run.result.timedOut)
        #expect(run.status == 0, "\(run.result.stderr.suffix(1_000))")
        #expect(run.entries.count == count)
        #expect(run.count("uploaded") == 1)
        #expect(run.count("duplicate") == count - 1)
        let again = try cli.ingest([cli.folder.appending("hostile/large")])
        #expect(again.count("skipped") == count)
        #expect(again.stages["read"]?.count ?? 0 == 0)
        ReliabilityFigure.record("folder of many entries", ["entries": count, "stored": run.count("uploaded")])
    }
}
