import Foundation
import IngestApp
import IngestCore
import IngestTesting
import Testing

/// Dates fixed in place after a run, the way exiftool does it when asked to keep the file's
/// times (`-P`): size, inode and a whole-second mtime stay as they were, only the ctime moves.
@Suite struct EditInPlaceTests {
    @Test(
        "Dates edited in place (exiftool -P, whole-second mtimes): the re-run dates exactly those again and says the path was sent before; a chmod stores nothing"
    )
    func datesEditedInPlaceAreSeen() throws {
        let cli = CommandLine("edit-in-place")
        let source = try Fixtures.corpus(count: 6, seed: 61, megapixels: 0.1, in: cli.folder)
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: source.appending(path: "manifest.json")))
        let photos = manifest.photos.map { source.appending(path: $0.name) }
        // The photos with a time to edit (make-corpus leaves some undated).
        let dated = manifest.photos.filter { $0.dateTimeOriginal != nil }.map { source.appending(path: $0.name) }
        try #require(dated.count >= 3)
        // As copied from a FAT or exFAT card with `cp -p`: no sub-second part.
        for photo in photos {
            _ = try Fixtures.check(runProgram("touch", ["-m", "-d", "2025-09-28 08:00:00", photo.path]))
        }
        let window = ["--from", "2025-09-20T00:00:00Z", "--until", "2025-10-05T00:00:00Z", "--timezone", "UTC"]
        let first = try cli.ingest([source], window)
        #expect(first.status == 0, "\(first.result.stderr)")
        #expect(first.count("stored") == 5)
        let before = Dictionary(uniqueKeysWithValues: first.entries.map { ($0.path, $0) })

        let edited = Array(dated.prefix(2))
        let chmodded = dated[2]
        let stamps = try edited.map { try Self.stamp($0) }
        _ = try Fixtures.check(
            runProgram(
                "exiftool", ["-q", "-P", "-overwrite_original_in_place", "-AllDates+=1:0:0"] + edited.map(\.path)))
        _ = try Fixtures.check(runProgram("chmod", ["600", chmodded.path]))
        // What made the hole: size, mtime and inode as they were.
        for (photo, stamp) in zip(edited, stamps) {
            let now = try Self.stamp(photo)
            #expect(now.size == stamp.size && now.modifiedNanoseconds == stamp.modifiedNanoseconds)
            #expect(now.inode == stamp.inode && now.changedNanoseconds != stamp.changedNanoseconds)
        }

        let again = try cli.ingest([source], window)
        #expect(again.status == 0, "\(again.result.stderr)")
        let stored = again.entries.filter { $0.status == .uploaded }
        #expect(Set(stored.map(\.path)) == Set(edited.map(\.path)))
        for line in stored {
            let earlier = try #require(before[line.path])
            #expect(line.sha256 != earlier.sha256)
            let was = try #require(earlier.captureTime.flatMap(RFC3339.parse))
            let now = try #require(line.captureTime.flatMap(RFC3339.parse))
            #expect(now.timeIntervalSince(was) == 3_600, "\(line)")
            #expect(line.reason?.contains("this path was sent before with other bytes") == true, "\(line)")
        }
        #expect(again.result.stderr.contains("sent before with other bytes (the earlier copy stays): 2"))
        // The same bytes under a new ctime: read again, and found already held.
        let chmodLine = try #require(again.entries.first { $0.path == chmodded.path })
        #expect(chmodLine.status == .duplicate, "\(chmodLine)")
        // The rest, the manifest and the undated photo among them, as they were.
        #expect(again.entries.filter { $0.reason == "unchanged since an earlier run" }.count == photos.count + 1 - 3)
        // Now recorded: the third run reads nothing.
        let third = try cli.ingest([source], window)
        #expect(third.summary?.event?.unchanged == photos.count + 1)
    }

    /// What scripts/make-corpus wrote of each photo.
    struct Manifest: Decodable {
        struct Photo: Decodable {
            var name: String
            var dateTimeOriginal: String?
        }
        var photos: [Photo]
    }

    static func stamp(_ url: URL) throws -> FileStamp {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw FixtureError("cannot stat \(url.path)") }
        return FileStamp(status)
    }
}
