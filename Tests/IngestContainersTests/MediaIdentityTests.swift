import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// What pairs files: Apple's content identifier in a still's maker note and a clip's keys, and the
/// camera, against exiftool.
@Suite struct MediaIdentityTests {
    static func identity(of url: URL) throws -> MediaIdentity {
        let bytes = Array(try Data(contentsOf: url))
        guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
            return MediaIdentity()
        }
        return bytes.withUnsafeBytes { MediaIdentity(ExifLocator.exif(in: $0, kind: kind)) }
    }

    @Test("Every real photo's Apple content identifier and camera are exiftool's MediaGroupUUID, Make and Model")
    func agreesWithExiftool() throws {
        let files = TestEnvironment.files(under: TestEnvironment.realCorpus).filter {
            $0.lastPathComponent != "README.md" && !$0.path.contains("/broken/")
        }
        try #require(files.count > 80, "the shared corpus is missing at \(TestEnvironment.realCorpus.path)")
        let oracle = try Fixtures.exiftool(["-Apple:MediaGroupUUID", "-IFD0:Make", "-IFD0:Model"], files: files)
        var identified = 0
        for file in files {
            let identity = try Self.identity(of: file)
            let entry = oracle[file.path] ?? [:]
            let theirs = entry["MediaGroupUUID"] as? String
            #expect(identity.contentIdentifier == theirs, "\(file.lastPathComponent)")
            let camera = [entry["Make"], entry["Model"]].compactMap {
                $0.map { "\($0)".trimmingCharacters(in: .whitespaces) }
            }
            .filter { !$0.isEmpty }.joined(separator: " ")
            #expect(
                identity.camera?.trimmingCharacters(in: .whitespaces) == (camera.isEmpty ? nil : camera),
                "\(file.lastPathComponent)")
            if theirs != nil { identified += 1 }
        }
        #expect(identified >= 3)
    }

    @Test("A clip's content identifier is read from its QuickTime keys")
    func clipIdentifier() throws {
        let folder = TemporaryFolder("clip-identifier")
        let clip = try Fixtures.video(
            in: folder, name: "IMG_1.MOV", creationTime: "2020-05-04T22:39:13Z",
            keys: ["com.apple.quicktime.content.identifier": "1745E022-9712-43C7-B024-F308EC6413CB"])
        let bytes = Array(try Data(contentsOf: clip))
        let fields = bytes.withUnsafeBytes { raw -> QuickTimeFields? in
            let reader = ByteReader(raw)
            guard let moov = ISOBox.find("moov", in: reader, range: 0..<reader.count) else { return nil }
            return QuickTimeReader.fields(moov: UnsafeRawBufferPointer(rebasing: raw[moov.payload]))
        }
        #expect(fields?.contentIdentifier == "1745E022-9712-43C7-B024-F308EC6413CB")
        let oracle = try Fixtures.exiftool(["-Keys:ContentIdentifier"], files: [clip])
        #expect(oracle[clip.path]?["ContentIdentifier"] as? String == fields?.contentIdentifier)
    }

    @Test("A motion photo (a JPEG that carries its clip) is known by its GCamera XMP property")
    func motionPhoto() throws {
        let folder = TemporaryFolder("motion-photo")
        let plain = try Fixtures.jpeg(in: folder, name: "plain.jpg")
        let motion = try Fixtures.jpeg(in: folder, name: "PXL_0001.MP.jpg", tags: ["XMP-GCamera:MicroVideo": "1"])
        let property = { (url: URL) throws -> String? in
            try Array(Data(contentsOf: url)).withUnsafeBytes { MotionPhoto.property(in: $0, kind: .jpeg) }
        }
        #expect(try property(motion) == "XMP GCamera:MicroVideo")
        #expect(try property(plain) == nil)
    }

    @Test("A Samsung motion photo is known by its trailer's MotionPhoto_Data block, as exiftool knows it")
    func samsungMotionPhoto() throws {
        let folder = TemporaryFolder("samsung-motion")
        let clip = try Fixtures.video(in: folder, name: "clip.mp4", width: 160, height: 120, seconds: 1)
        let motion = try Fixtures.jpeg(in: folder, name: "20200504_182000.jpg")
        try Fixtures.appendSamsungTrailer(clip: clip, to: motion)
        let other = try Fixtures.jpeg(in: folder, name: "other-block.jpg")
        try Fixtures.appendSamsungTrailer(clip: clip, to: other, type: 0x0A20)
        let cut = try Fixtures.jpeg(in: folder, name: "cut.jpg")
        try Fixtures.appendSamsungTrailer(clip: clip, to: cut)
        let whole = try Data(contentsOf: cut)
        try (whole.prefix(whole.count / 2) + whole.suffix(8)).write(to: cut)
        let property = { (url: URL) throws -> String? in
            try Array(Data(contentsOf: url)).withUnsafeBytes { MotionPhoto.property(in: $0, kind: .jpeg) }
        }
        #expect(try property(motion) == "Samsung trailer MotionPhoto_Data")
        #expect(try property(other) == nil)
        #expect(try property(cut) == nil, "a trailer whose directory is gone holds no clip")
        let oracle = try Fixtures.exiftool(["-Samsung:EmbeddedVideoType"], files: [motion, other])
        #expect(oracle[motion.path]?["EmbeddedVideoType"] as? String == "MotionPhoto_Data")
        #expect(oracle[other.path]?["EmbeddedVideoType"] == nil)
    }

    @Test("A HEIC motion photo is known by its top-level mpvd box, as exiftool knows it")
    func heicMotionPhoto() throws {
        let folder = TemporaryFolder("heic-motion")
        let clip = try Fixtures.video(in: folder, name: "clip.mp4", width: 160, height: 120, seconds: 1)
        let real = TestEnvironment.realCorpus.appendingPathComponent("heic/IMG_2927.HEIC")
        let stills = ["motion.heic", "plain.heic", "other-box.heic"].map { folder.appending($0) }
        for still in stills { try FileManager.default.copyItem(at: real, to: still) }
        try Fixtures.appendClipBox(clip: clip, to: stills[0])
        try Fixtures.appendClipBox(clip: clip, to: stills[2], type: "free")
        let property = { (url: URL) throws -> String? in
            try Array(Data(contentsOf: url)).withUnsafeBytes { MotionPhoto.property(in: $0, kind: .heic) }
        }
        #expect(try stills.map(property) == ["HEIF mpvd box", nil, nil])
        let oracle = try Fixtures.exiftool(["-QuickTime:MotionPhotoVideo"], files: stills)
        #expect(oracle[stills[0].path]?["MotionPhotoVideo"] != nil)
        #expect(
            oracle[stills[1].path]?["MotionPhotoVideo"] == nil && oracle[stills[2].path]?["MotionPhotoVideo"] == nil)
        // An mpvd box that holds no ISO media file is no clip.
        let junk = Array(try Data(contentsOf: real)) + Fixtures.clipBox(clip: Array("not a movie at all".utf8))
        #expect(junk.withUnsafeBytes { MotionPhoto.property(in: $0, kind: .heic) } == nil)
    }
}
