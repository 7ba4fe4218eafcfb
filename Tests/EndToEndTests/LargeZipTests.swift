import Foundation
import IngestTesting
import Testing

/// A Takeout part past 4 GiB: a video over 4 GiB in a ZIP64 zip and a photo after it (its entry
/// at an offset past 4 GiB), read in place into the archive. Made sparse (the video's padding is
/// a hole in the zip), so it takes the archive's copy's space, not twice that.
@Suite struct LargeZipTests {
    /// What the video is padded with: past 4 GiB, so its size and the next entry's offset need ZIP64.
    static let padding: Int64 = (4 << 30) + (64 << 20)

    /// Free bytes where the test writes (the archive keeps a copy of the video).
    static var freeBytes: Int64 {
        var status = statvfs()
        guard statvfs(NSTemporaryDirectory(), &status) == 0 else { return 0 }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    /// A ZIP64 part of `entries` (name in the zip, file, bytes of zeros after it), stored, each
    /// entry's zeros a hole in the zip; prints each entry's SHA-256 in order.
    static let script = """
        import hashlib, json, struct, sys, zlib
        target, entries = sys.argv[1], json.loads(sys.argv[2])
        ZERO = bytes(16 << 20)
        def chunks(path, pad):
            with open(path, "rb") as f:
                yield f.read()
            while pad > 0:
                n = min(pad, len(ZERO)); pad -= n
                yield ZERO[:n] if n < len(ZERO) else ZERO
        directory, hashes = b"", []
        with open(target, "wb") as out:
            for name, path, pad, head in entries:
                crc, digest, size = 0, hashlib.sha256(), 0
                for chunk in chunks(path, pad):
                    crc = zlib.crc32(chunk, crc); digest.update(chunk); size += len(chunk)
                hashes.append(digest.hexdigest())
                offset, raw = out.tell(), name.encode()
                out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0x800, 0, 0, 0x5821, crc,
                                      0xFFFFFFFF, 0xFFFFFFFF, len(raw), 20) + raw + struct.pack("<HHQQ", 1, 16, size, size))
                with open(path, "rb") as f:
                    out.write(f.read())
                out.seek(pad, 1)
                directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45 | 3 << 8, 45, 0x800, 0, 0, 0x5821, crc,
                                         0xFFFFFFFF, 0xFFFFFFFF, len(raw), 28, 0, 0, 0, 0o100644 << 16, 0xFFFFFFFF)
                directory += raw + struct.pack("<HHQQQ", 1, 24, size, size, offset)
            start = out.tell()
            out.write(directory)
            end = out.tell()
            count = len(entries)
            out.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, end - start, start))
            out.write(struct.pack("<IIQI", 0x07064B50, 0, end, 1))
            out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0))
        print("\\n".join(hashes))
        """

    @Test(
        "A video over 4 GiB in a ZIP64 Takeout part, and a photo past it: stored whole from the zip, dated by their JSONs",
        .enabled(if: LargeZipTests.freeBytes > 8 << 30, "needs 8 GiB free under the temporary folder"))
    func videoPastFourGiB() throws {
        let folder = TemporaryFolder("zip-large")
        // The video's moov first, then a `free` box (64-bit size) whose contents are the zeros:
        // a real, playable MP4 past 4 GiB.
        let clip = try Fixtures.video(in: folder, name: "clip.mp4", faststart: true)
        var head = try Data(contentsOf: clip)
        let boxSize = UInt64(16) + UInt64(Self.padding)
        head +=
            Data([0, 0, 0, 1]) + Data("free".utf8)
            + Data((0..<8).map { UInt8(truncatingIfNeeded: boxSize >> (56 - 8 * $0)) })
        let video = folder.appending("video-head.bin")
        try head.write(to: video)
        let photo = try Fixtures.jpeg(in: folder, name: "IMG.jpg")
        let place = "Takeout/Google Photos/Photos from 2024"
        let videoJSON = folder.appending("BIG.mp4.json")
        try TakeoutRunTests.json(1_714_828_577, title: "BIG.mp4").write(to: videoJSON)
        let photoJSON = folder.appending("IMG.jpg.json")
        try TakeoutRunTests.json(1_714_828_600, title: "IMG.jpg").write(to: photoJSON)
        let entries: [[Any]] = [
            ["\(place)/BIG.mp4", video.path, Self.padding, 0], ["\(place)/BIG.mp4.json", videoJSON.path, 0, 0],
            ["\(place)/IMG.jpg", photo.path, 0, 0], ["\(place)/IMG.jpg.json", photoJSON.path, 0, 0],
        ]
        let parts = folder.appending("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        let zip = parts.appendingPathComponent("takeout-20260101T000000Z-001.zip")
        let list = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
        let made = try runProgram("python3", ["-c", Self.script, zip.path, list])
        try Fixtures.check(made)
        let hashes = made.stdout.split(separator: "\n").map(String.init)
        #expect(try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? Int64 ?? 0 > 1 << 32)

        // Into the archive: the reference server built for tests (debug) takes a few MB/s of
        // upload, so 4 GiB to it is for scripts/bench (a release build); the upload of a video
        // from a zip is tested in ZipRunTests.
        let scratch = folder.appending("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let environment = ["TMPDIR": scratch.path]
        let cli = CommandLine("zip-large")
        let options = ["--timezone", "UTC"]
        let run = try cli.ingest([parts], options, environment: environment)
        #expect(run.status == 0, "\(run.result.stderr)")
        let big = try #require(run.entry(named: "BIG.mp4"))
        #expect(big.status == .uploaded, "\(big)")
        #expect(big.sha256 == hashes[0])
        #expect(big.captureSource == "takeout-json" && big.captureTime == "2024-05-04T13:16:17Z", "\(big)")
        let image = try #require(run.entry(named: "IMG.jpg"))
        #expect(image.status == .uploaded && image.sha256 == hashes[2], "\(image)")
        #expect(image.captureSource == "takeout-json" && image.captureTime == "2024-05-04T13:16:40Z", "\(image)")
        // The archive keeps a copy only when its SHA-256 is the one read: whole, with thumbnails.
        let original = cli.archive.appendingPathComponent("originals/\(hashes[0].prefix(2))/\(hashes[0]).mp4")
        let stored = try FileManager.default.attributesOfItem(atPath: original.path)[.size] as? Int
        #expect(stored == head.count + Int(Self.padding))
        #expect(
            FileManager.default.fileExists(
                atPath: cli.archive.appendingPathComponent("thumbnails/500/\(hashes[0].prefix(2))/\(hashes[0]).jpg")
                    .path))
        // Nothing was unpacked: no temporary file, nothing beside the zip.
        #expect(TestEnvironment.files(under: scratch).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).count == 1)
        let again = try cli.ingest([parts], options, environment: environment)
        #expect(again.summary?.event?.unchanged == 2)
        #expect(again.summary?.event?.bytes == 0)
    }
}
