import Foundation
import IngestApp
import IngestCore
import IngestPipeline
import IngestTesting
import Testing

/// The built command over `../shared/corpus/real`: real cameras' and phones' files, and broken ones.
@Suite struct RealCorpusTests {
    @Test("Every file ends with exactly one outcome, broken ones failed with a reason, and nothing crashes")
    func everyFileAccountedFor() throws {
        let corpus = TestEnvironment.realCorpus
        let files = TestEnvironment.files(under: corpus)
        try #require(files.count > 100, "the shared corpus is missing at \(corpus.path)")
        let cli = CommandLine("real")
        let run = try cli.ingest([corpus])

        #expect(run.status == 1, "some broken files must fail: \(run.result.stderr.suffix(2_000))")
        #expect(run.entries.count == files.count)
        #expect(Set(run.entries.map(\.path)) == Set(files.map(\.path)))
        let counts = ["stored", "duplicate", "outside", "failed", "skipped"].map(run.count)
        #expect(counts.reduce(0, +) == files.count)
        for entry in run.entries {
            let status = entry.status
            if status == .failed {
                #expect(entry.error?.isEmpty == false, "\(entry)")
            }
            if status == .skipped {
                #expect(entry.reason?.isEmpty == false, "\(entry)")
            }
        }
        // Every real camera JPEG is ingested; only the deliberately broken files fail.
        for entry in run.entries where entry.path.contains("/jpeg/") {
            #expect(entry.status == .uploaded, "\(entry)")
            #expect(entry.captureSource != nil)
        }
        // Every WebP and AVIF too, whatever their EXIF holds.
        for entry in run.entries
        where ["webp", "avif"].contains(URL(fileURLWithPath: entry.path).pathExtension.lowercased()) {
            #expect(entry.status == .uploaded, "\(entry)")
        }
        #expect(
            run.entries.filter { $0.status == .failed }.allSatisfy {
                $0.path.contains("/broken/") || $0.path.contains("/heic/")
            })
        // A broken JPEG's reason is libjpeg's own account of what broke, as libjpeg-turbo's djpeg
        // also reports it for that file; one that decodes whole is stored.
        for entry in run.entries where entry.path.contains("/broken/") {
            let path = URL(fileURLWithPath: entry.path)
            switch entry.status {
            case .failed where entry.errorCode == "tooManyPixels":
                #expect(entry.error?.contains("pixels, over the limit") == true, "\(entry)")
            case .failed:
                let reason = entry.error ?? ""
                let djpeg = try runProgram("djpeg", ["-outfile", "/dev/null", path.path]).stderr
                let named = Self.libjpegMessages(in: reason).contains { message in
                    djpeg.contains(message)
                        || (message == "Premature end of input file" && djpeg.contains("Premature end of JPEG file"))
                        || (message.hasPrefix("Corrupt JPEG data: found marker") && djpeg.contains("Corrupt JPEG data"))
                }
                #expect(named, "\(path.lastPathComponent): \(reason) | djpeg: \(djpeg)")
            case .uploaded:
                break
            case .skipped where try Data(contentsOf: path).prefix(2) != Data([0xFF, 0xD8]):
                // Not even a JPEG's start of image: not a JPEG at all, and said so.
                #expect(entry.reason?.contains("not a supported image format") == true, "\(entry)")
            default:
                Issue.record("a broken JPEG neither stored nor failed: \(entry)")
            }
        }
        // HEIC from an iPhone: the offset the phone wrote.
        let iphone = try #require(run.entry(named: "IMG_2927.HEIC"))
        #expect(iphone.captureSource == "exif-offset")
        #expect(iphone.captureTime == "2020-05-04T22:39:11.644Z")

        // The run after it opens none of them: every failure lies in the file's own bytes, known
        // broken while the file is unchanged.
        let again = try cli.ingest([corpus])
        #expect(again.status == 0)
        #expect(again.count("failed") == 0)
        #expect(again.summary?.event?.knownBroken == run.count("failed"))
        #expect(again.stages["read"] == nil)
    }

    /// The messages libjpeg gave in a failure's reason (`VipsJpeg: …; VipsJpeg: …`).
    static func libjpegMessages(in reason: String) -> [String] {
        reason.components(separatedBy: "VipsJpeg: ").dropFirst().map {
            $0.components(separatedBy: "; ")[0].trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
    }

    /// What each file of `../shared/corpus/media` ends as today: the video and raw issues change
    /// these rows as they land (each row is a status and a piece of the reason or capture source).
    static let mediaToday: [String: (status: String, says: String)] = [
        "README.md": ("skipped", "not a supported image format"),
        "video/FLIR Thermal.mp4": ("stored", "quicktime-utc"),
        "video/Issue 515 (java).mp4": ("stored", "quicktime-utc"),
        "video/ftyp3gp5.mp4": ("stored", "quicktime-utc"),
        "video/sample.3gp": ("stored", "quicktime-utc"),
        "video/sample_iPod.m4v": ("stored", "quicktime-utc"),
        "video/sample_iTunes.mov": ("stored", "quicktime-utc"),
        "video/sample_mpeg4.mp4": ("stored", "quicktime-utc"),
        "video/uuid540.mp4": ("stored", "quicktime-utc"),
        "video/with-gps.mov": ("stored", "quicktime-offset"),
        "video/with-gps.mp4": ("stored", "quicktime-utc"),
        "video/xmp480qt.mov": ("stored", "quicktime-utc"),
        // JPEGs named .nef: taken by their content.
        "raw/Issue 247-1.nef": ("stored", "exif-assumed-zone"),
        "raw/Issue 247-2.nef": ("stored", "exif-assumed-zone"),
        "raw/Issue 247-3.nef": ("stored", "exif-assumed-zone"),
        "raw/Issue 247-4.nef": ("stored", "exif-assumed-zone"),
        // exiftool's raw samples keep 26-byte stand-ins for their previews, or 8×8 ones; the cut RW2
        // none. A raw photo with no preview is kept, without thumbnails.
        "raw/Issue 419.rw2": ("stored", "stored without thumbnails: the raw photo embeds no JPEG preview"),
        "exiftool-samples/CanonRaw.cr2": ("stored", "stored without thumbnails: the raw photo embeds no JPEG preview"),
        "exiftool-samples/CanonRaw.cr3": ("stored", "stored without thumbnails: the raw photo embeds no JPEG preview"),
        "exiftool-samples/CanonRaw.crw": ("skipped", "Canon CRW raw photos are not supported"),
        "exiftool-samples/DNG.dng": ("stored", "stored without thumbnails: the raw photo embeds no JPEG preview"),
        "exiftool-samples/FujiFilm.raf": ("stored", "largest embedded preview is 8×8"),
        // Cut to their headers.
        "exiftool-samples/JXL.jxl": ("failed", "jxlload"),
        "exiftool-samples/JXL2.jxl": ("failed", "jxlload"),
        "exiftool-samples/M2TS.mts": ("skipped", "not a supported image format"),
        "exiftool-samples/Matroska.mkv": ("skipped", "video (Matroska/WebM) is not supported yet"),
        "exiftool-samples/Nikon.nef": ("stored", "stored without thumbnails: the raw photo embeds no JPEG preview"),
        "exiftool-samples/Panasonic.rw2": ("stored", "largest embedded preview is 8×8"),
        "exiftool-samples/PhaseOne.iiq": ("stored", "exif-assumed-zone"),
        "exiftool-samples/QuickTime.heic": ("failed", "Unexpected end of file"),
        // A container sample with its frames cut away: dated from mvhd, kept without thumbnails.
        "exiftool-samples/QuickTime.mov": ("stored", "stored without thumbnails: no frame could be decoded"),
        "exiftool-samples/Sigma.x3f": ("skipped", "Sigma X3F raw photos are not supported"),
    ]

    @Test(
        "The shared media corpus (videos, raw files, exiftool's samples) ends as today's table says, each with its reason"
    )
    func mediaCorpusAsToday() throws {
        let corpus = TestEnvironment.realCorpus.deletingLastPathComponent().appendingPathComponent("media")
        let files = TestEnvironment.files(under: corpus)
        try #require(!files.isEmpty, "the shared media corpus is missing at \(corpus.path)")
        let run = try CommandLine("media").ingest([corpus], ["--timezone", "UTC"])
        #expect(!run.result.timedOut)
        #expect(run.entries.count == files.count, "one outcome per file")
        let relative = Set(files.map { String($0.path.dropFirst(corpus.path.count + 1)) })
        #expect(
            relative == Set(Self.mediaToday.keys),
            "files added or gone: \(relative.symmetricDifference(Self.mediaToday.keys))")
        for entry in run.entries {
            let path = String(entry.path.dropFirst(corpus.path.count + 1))
            guard let expected = Self.mediaToday[path] else { continue }
            #expect(entry.status == FileStatus(name: expected.status), "\(path): \(entry)")
            let says = entry.error ?? entry.reason ?? entry.captureSource ?? ""
            #expect(says.contains(expected.says), "\(path): \(says)")
        }
    }
}
