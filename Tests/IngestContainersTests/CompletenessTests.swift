import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// A file is whole by its own structure: real camera and phone files, whole, are never judged
/// cut, and each of them cut short anywhere is never judged whole.
@Suite struct CompletenessTests {
    /// The real files of each format the watch judges: photos, raw files and videos.
    static let corpus: [URL] = {
        let folders = [
            TestEnvironment.realCorpus.appendingPathComponent("jpeg"),
            TestEnvironment.realCorpus.appendingPathComponent("webp"),
            TestEnvironment.mediaCorpus.appendingPathComponent("raw"),
            TestEnvironment.mediaCorpus.appendingPathComponent("video"),
        ]
        let named = ["heic/IMG_2927.HEIC", "heic/cheers_1440x960.heic", "avif/32Bit-72dpi-sRGB-800x600.avif"].map {
            TestEnvironment.realCorpus.appendingPathComponent($0)
        }
        let found = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().map {
                folder.appendingPathComponent($0)
            }
        }
        return found + named + [TestEnvironment.repository.appendingPathComponent("samples/IMG_0003-export.png")]
    }()

    static func judge(_ bytes: [UInt8]) -> Completeness {
        bytes.withUnsafeBytes { Completeness.of($0) }
    }

    @Test("Every real file, whole, is judged whole, never cut (but a stub whose values lie past its end)")
    func wholeFiles() throws {
        var judged = 0
        for url in Self.corpus {
            let bytes = Array(try Data(contentsOf: url))
            let verdict = Self.judge(bytes)
            judged += 1
            // A stub of 368 bytes whose first directory's values lie past its end (exiftool:
            // "Error reading value for IFD0 entry 0"): cut indeed.
            if url.lastPathComponent == "Issue 419.rw2" {
                #expect(verdict == .cut("a value of its first directory lies past the end"))
                continue
            }
            #expect(verdict != .unknown, "\(url.lastPathComponent)")
            if case .cut(let reason) = verdict { Issue.record("\(url.lastPathComponent) judged cut: \(reason)") }
        }
        #expect(judged >= 40, "the corpus was not found")
    }

    @Test("Every real file cut short, at a tenth, a half or a byte before its end, is judged cut, or is whole")
    func cutFiles() throws {
        let folder = TemporaryFolder()
        var cut = 0
        for url in Self.corpus {
            let bytes = Array(try Data(contentsOf: url))
            guard Self.judge(bytes) == .whole else { continue }
            for length in [bytes.count / 10, bytes.count / 2, bytes.count - 1] {
                let verdict = Self.judge(Array(bytes.prefix(length)))
                if case .cut = verdict {
                    cut += 1
                    continue
                }
                // Cameras pad their JPEGs to a block, or leave a buffer's bytes after the image:
                // cut there, the image is still whole. libjpeg says so: it reads to the end marker
                // and warns of a premature end otherwise.
                let isJPEG = bytes.starts(with: [0xFF, 0xD8])
                if isJPEG {
                    let part = folder.appending("part.jpg")
                    try Data(bytes.prefix(length)).write(to: part)
                    let decoded = try runProgram("djpeg", ["-outfile", "/dev/null", part.path])
                    if !decoded.stderr.contains("Premature end") { continue }
                }
                Issue.record("\(url.lastPathComponent) cut to \(length) of \(bytes.count) bytes judged \(verdict)")
            }
        }
        #expect(cut >= 100, "too few cuts judged: \(cut)")
    }

    @Test("A JPEG with data after its end (a motion photo's clip) is whole; an empty file is cut")
    func trailerAndEmpty() throws {
        var bytes = Array(
            try Data(contentsOf: TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg")))
        bytes += [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 7, count: 500)
        #expect(Self.judge(bytes) == .whole)
        #expect(Self.judge([]) == .cut("it is empty"))
        #expect(Self.judge(Array("plain text, no photo".utf8)) == .unknown)
    }

    @Test("A video made by ffmpeg: whole with its index at the end or at the start, cut without the rest")
    func videos() throws {
        let folder = TemporaryFolder()
        for faststart in [false, true] {
            let url = try Fixtures.video(in: folder, name: "clip-\(faststart).mp4", seconds: 2, faststart: faststart)
            let bytes = Array(try Data(contentsOf: url))
            #expect(Self.judge(bytes) == .whole, "faststart \(faststart)")
            // Its media data runs past the end, wherever its index is.
            guard case .cut(let reason) = Self.judge(Array(bytes.prefix(bytes.count * 2 / 3))) else {
                Issue.record("two thirds of a video judged whole (faststart \(faststart))")
                continue
            }
            #expect(reason.contains("runs past the end"), "\(reason)")
            // Cut just before its index, which ffmpeg writes last: every box whole, no index yet.
            guard !faststart else { continue }
            let index = bytes.withUnsafeBytes { ISOBox.find("moov", in: ByteReader($0), range: 0..<$0.count) }
            let before = Array(bytes.prefix(try #require(index).offset))
            #expect(Self.judge(before) == .cut("no moov or meta box: the file's index is not written yet"))
        }
    }

    @Test("A progressive JPEG, its scans apart with tables between them: whole, and cut short anywhere, cut")
    func progressive() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("progressive.jpg")
        let made = try runProgram(
            "jpegtran",
            [
                "-progressive", "-copy", "all", "-outfile", url.path,
                TestEnvironment.repository.appendingPathComponent("samples/IMG_0002.jpg").path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let bytes = Array(try Data(contentsOf: url))
        #expect(Self.judge(bytes) == .whole)
        for tenth in 1...9 {
            #expect(Self.judge(Array(bytes.prefix(bytes.count * tenth / 10))) != .whole, "cut at \(tenth)/10")
        }
    }

    @Test("A file on disk is judged from its bytes; one that cannot be read is nil")
    func onDisk() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("half.jpg")
        let bytes = Array(
            try Data(contentsOf: TestEnvironment.repository.appendingPathComponent("samples/IMG_0002.jpg")))
        try Data(bytes.prefix(bytes.count / 2)).write(to: url)
        #expect(Completeness.of(path: url.path) == .cut("the JPEG has no end-of-image marker"))
        try Data(bytes).write(to: url)
        #expect(Completeness.of(path: url.path) == .whole)
        #expect(Completeness.of(path: folder.appending("absent.jpg").path) == nil)
    }
}
