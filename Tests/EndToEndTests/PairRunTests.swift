import Foundation
import IngestApp
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// Pairs through the whole pipeline: a Live Photo's clip follows its still across a window's edge,
/// a same-named unrelated clip does not, and a raw photo follows its JPEG; the report and the
/// catalog name each file's pair and why.
@Suite(.serialized) struct PairRunTests {
    static let folder = TemporaryFolder("pairs")
    static let live = TemporaryFolder(at: folder.appending("live"))
    static let other = TemporaryFolder(at: folder.appending("other"))
    static let raw = TemporaryFolder(at: folder.appending("raw"))
    static let motion = TemporaryFolder(at: folder.appending("motion"))
    /// `live/`: an iPhone 11 Pro still (its maker note's content identifier 1745E022-…, taken at
    /// 22:39:11.644Z) and a clip of the same identifier dated 22:39:13Z. `other/`: another still
    /// (22:44:06Z) and a same-named clip of another identifier at 22:30Z. `raw/`: a NEF and the
    /// JPEG the same camera wrote in the same second.
    static let media: Result<URL, Error> = Result {
        let heic = TestEnvironment.realCorpus.appendingPathComponent("heic")
        let (live, other, raw) = (Self.live, Self.other, Self.raw)
        try FileManager.default.copyItem(
            at: heic.appendingPathComponent("IMG_2927.HEIC"), to: live.appending("IMG_2927.HEIC"))
        _ = try Fixtures.video(
            in: live, name: "IMG_2927.MOV", creationTime: "2020-05-04T22:39:13Z",
            keys: ["com.apple.quicktime.content.identifier": "1745E022-9712-43C7-B024-F308EC6413CB"])
        try FileManager.default.copyItem(
            at: heic.appendingPathComponent("IMG_2929.HEIC"), to: other.appending("IMG_3000.HEIC"))
        _ = try Fixtures.video(
            in: other, name: "IMG_3000.MOV", creationTime: "2020-05-04T22:30:00Z",
            keys: ["com.apple.quicktime.content.identifier": "00000000-0000-4000-8000-000000000000"])
        let shot = ["IFD0:Make": "NIKON CORPORATION", "IFD0:Model": "NIKON D70"]
        _ = try Fixtures.raw(
            "Nikon.nef", in: raw, previewTag: "JpgFromRaw", width: 1200, height: 800,
            tags: ["IFD0:DateTimeOriginal": "2020:05:04 18:20:00"])
        try FileManager.default.moveItem(at: raw.appending("Nikon.nef"), to: raw.appending("DSC_0001.NEF"))
        _ = try Fixtures.jpeg(
            in: raw, name: "DSC_0001.JPG", tags: shot.merging(["EXIF:DateTimeOriginal": "2020:05:04 18:20:00"]) { $1 })
        // A motion photo: the clip inside the still, said by its XMP.
        _ = try Fixtures.jpeg(
            in: Self.motion, name: "PXL_0001.MP.jpg",
            tags: ["XMP-GCamera:MicroVideo": "1", "EXIF:DateTimeOriginal": "2020:05:04 18:20:00"])
        // Samsung's: the clip in a trailer after the JPEG's end.
        let samsung = try Fixtures.jpeg(
            in: Self.motion, name: "20200504_182000.jpg", tags: ["EXIF:DateTimeOriginal": "2020:05:04 18:20:00"])
        let clips = TemporaryFolder("samsung-clip")
        try Fixtures.appendSamsungTrailer(
            clip: try Fixtures.video(in: clips, name: "clip.mp4", width: 160, height: 120, seconds: 1), to: samsung)
        // A HEIC motion photo: the clip in a top-level mpvd box.
        let motionHEIC = Self.motion.appending("20240112_213853.heic")
        try FileManager.default.copyItem(at: heic.appendingPathComponent("IMG_2929.HEIC"), to: motionHEIC)
        try Fixtures.appendClipBox(clip: clips.appending("clip.mp4"), to: motionHEIC)
        return Self.folder.url
    }

    @Test("A Live Photo's clip goes where its still goes; a same-named clip of another shot does not pair")
    func livePhoto() throws {
        let media = try Self.media.get()
        let cli = CommandLine("pair-run")
        // The window ends between the still (22:39:11.644Z) and its clip (22:39:13Z).
        let run = try cli.ingest(
            [media],
            ["--from", "2020-05-04T22:00:00Z", "--until", "2020-05-04T22:39:12Z", "--timezone", "America/New_York"])
        #expect(run.status == 0, "\(run.result.stderr)")
        let still = try #require(run.entry(named: "live/IMG_2927.HEIC"))
        let clip = try #require(run.entry(named: "live/IMG_2927.MOV"))
        #expect(still.status == .uploaded, "\(still)")
        #expect(clip.status == .uploaded, "the clip did not follow its still: \(clip)")
        #expect(clip.captureTime == "2020-05-04T22:39:13Z", "the clip keeps its own time")
        let clipPair = try #require(clip.pair)
        #expect(clipPair.path.hasSuffix("live/IMG_2927.HEIC"))
        #expect(clipPair.why.contains("1745E022-9712-43C7-B024-F308EC6413CB"))
        #expect(still.pair?.path.hasSuffix("live/IMG_2927.MOV") == true)

        let otherStill = try #require(run.entry(named: "other/IMG_3000.HEIC"))
        let otherClip = try #require(run.entry(named: "other/IMG_3000.MOV"))
        #expect(otherStill.status == .outside)
        #expect(otherClip.status == .uploaded, "a same-named clip followed a still it is not of: \(otherClip)")
        #expect(otherStill.pair == nil && otherClip.pair == nil)

        // The catalog keeps the pair too.
        let recorded = try runProgram(
            "sqlite3", [cli.catalog.path, "SELECT pair_reason FROM file WHERE path LIKE '%live/IMG_2927.MOV'"])
        #expect(recorded.stdout.contains("Live Photo"), "\(recorded.stdout)")
    }

    @Test("A raw photo and its JPEG, the same camera and second, are a pair")
    func rawAndJPEG() throws {
        let media = try Self.media.get()
        let run = try CommandLine("pair-raw").ingest([media.appendingPathComponent("raw")], ["--timezone", "UTC"])
        #expect(run.status == 0, "\(run.result.stderr)")
        let raw = try #require(run.entry(named: "DSC_0001.NEF"))
        let jpeg = try #require(run.entry(named: "DSC_0001.JPG"))
        #expect(raw.status == .uploaded && jpeg.status == .uploaded)
        #expect(raw.pair?.path.hasSuffix("DSC_0001.JPG") == true, "\(raw)")
        #expect(raw.pair?.why.contains("NIKON CORPORATION NIKON D70") == true)

        let motion = try CommandLine("pair-motion").ingest(
            [media.appendingPathComponent("motion")], ["--timezone", "UTC"])
        let still = try #require(motion.entry(named: "PXL_0001.MP.jpg"))
        #expect(still.pair?.why.contains("motion photo") == true, "\(still)")
        let samsung = try #require(motion.entry(named: "20200504_182000.jpg"))
        #expect(samsung.status == .uploaded, "\(samsung)")
        #expect(samsung.pair?.why.contains("Samsung trailer MotionPhoto_Data") == true, "\(samsung)")
        let heic = try #require(motion.entry(named: "20240112_213853.heic"))
        #expect(heic.status == .uploaded, "\(heic)")
        #expect(heic.pair?.why.contains("HEIF mpvd box") == true, "\(heic)")
    }

    @Test("A clip added after its still was stored still follows it: the still is read again to pair it")
    func clipAfterItsStill() throws {
        let folder = TemporaryFolder("pair-later")
        try FileManager.default.copyItem(
            at: TestEnvironment.realCorpus.appendingPathComponent("heic/IMG_2927.HEIC"),
            to: folder.appending("IMG_2927.HEIC"))
        let cli = CommandLine("pair-later-run")
        let window = ["--from", "2020-05-04T22:00:00Z", "--until", "2020-05-04T22:39:12Z"]
        let first = try cli.ingest([folder.url], window)
        #expect(first.count("uploaded") == 1, "\(first.result.stderr)")
        _ = try Fixtures.video(
            in: folder, name: "IMG_2927.MOV", creationTime: "2020-05-04T22:39:13Z",
            keys: ["com.apple.quicktime.content.identifier": "1745E022-9712-43C7-B024-F308EC6413CB"])
        let second = try cli.ingest([folder.url], window)
        let clip = try #require(second.entry(named: "IMG_2927.MOV"))
        #expect(clip.status == .uploaded, "the clip did not follow its stored still: \(clip)")
        #expect(second.count("uploaded") == 1, "the still was stored again")
    }
}
