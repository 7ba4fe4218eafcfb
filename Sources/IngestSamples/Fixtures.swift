import Foundation
import IngestContainers

/// Test photos made on the spot with the project's own tools: libvips draws them, exiftool
/// writes exactly the tags a test names.
public enum Fixtures {
    /// A JPEG of `width`×`height` with the given EXIF tags written by exiftool
    /// (e.g. `["EXIF:DateTimeOriginal": "2025:09:27 21:39:00", "EXIF:OffsetTimeOriginal": "-07:00"]`).
    public static func jpeg(
        in folder: TemporaryFolder, name: String = "photo.jpg", width: Int = 64, height: Int = 48,
        tags: [String: String] = [:]
    ) throws -> URL {
        let url = folder.appending(name)
        try check(
            runProgram(
                "vips", ["gaussnoise", url.path + "[Q=90]", "\(width)", "\(height)", "--mean", "128", "--sigma", "40"]))
        if !tags.isEmpty { try self.write(tags, to: url) }
        return url
    }

    /// A real video made by ffmpeg (MPEG-4 Part 2 frames, blue with a red band along the top), its
    /// `mvhd` creation time set; then exiftool writes `tags` (e.g. `["Rotation": "90"]`,
    /// `["Keys:CreationDate": "2025:09:27 23:15:00+02:00"]`). The container follows the name's
    /// extension; `moov` goes at the end unless `faststart`. `keys` are written by ffmpeg as QuickTime
    /// `mdta` keys (`com.apple.quicktime.content.identifier`), which exiftool reads but cannot write.
    public static func video(
        in folder: TemporaryFolder, name: String, width: Int = 320, height: Int = 240, seconds: Double = 3,
        creationTime: String? = nil, faststart: Bool = false, keys: [String: String] = [:], tags: [String: String] = [:]
    ) throws -> URL {
        let url = folder.appending(name)
        let source =
            "color=c=blue:s=\(width)x\(height):d=\(seconds):r=10,drawbox=x=0:y=0:w=\(width):h=\(height / 6):color=red:t=fill"
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "mpeg4"]
        if let creationTime { arguments += ["-metadata", "creation_time=\(creationTime)"] }
        for (key, value) in keys.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        let flags = (faststart ? ["+faststart"] : []) + (keys.isEmpty ? [] : ["+use_metadata_tags"])
        if !flags.isEmpty { arguments += ["-movflags", flags.joined()] }
        try check(runProgram("ffmpeg", arguments + [url.path]))
        if !tags.isEmpty { try self.write(tags, to: url) }
        return url
    }

    /// A real MP4 made by ffmpeg with the Canon metadata box of exiftool's CR3 sample put into its
    /// `moov`, as a Canon camera writes it into its videos: exiftool reads the body (Canon EOS M50)
    /// and its serial (613040000565) from it.
    public static func canonVideo(named name: String, in folder: TemporaryFolder) throws -> URL {
        let cr3 = Array(
            try Data(
                contentsOf: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/CanonRaw.cr3")))
        let box = cr3.withUnsafeBytes { raw -> [UInt8]? in
            let reader = ByteReader(raw)
            guard let moov = ISOBox.find("moov", in: reader, range: 0..<reader.count) else { return nil }
            return ISOBox.children(in: reader, range: moov.payload).first {
                $0.type == "uuid" && $0.payload.count >= 16
                    && Array(raw[$0.payload.lowerBound..<$0.payload.lowerBound + 16]) == CanonCR3.metadataUUID
            }.map { Array(raw[$0.offset..<$0.payload.upperBound]) }
        }
        guard let box else { throw FixtureError("no Canon box in the CR3 sample") }
        return try self.makerVideo(named: name, in: folder, inMovie: box)
    }

    /// A one-second clip ffmpeg makes, with `inMovie` (boxes) added to its `moov` and `afterMovie`
    /// after it: a maker's boxes where its camera writes them.
    public static func makerVideo(
        named name: String, in folder: TemporaryFolder, inMovie: [UInt8], afterMovie: [UInt8] = []
    ) throws -> URL {
        let clip = folder.appending(name)
        try check(
            runProgram(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=160x120:d=1:r=10", "-c:v", "mpeg4",
                    clip.path,
                ]))
        var video = Array(try Data(contentsOf: clip))
        // ffmpeg writes `moov` last: it grows by the boxes, and nothing after it moves.
        guard let moov = video.withUnsafeBytes({ ISOBox.find("moov", in: ByteReader($0), range: 0..<$0.count) }),
            moov.payload.upperBound == video.count
        else { throw FixtureError("no moov at the end of ffmpeg's MP4") }
        let size = UInt32(moov.payload.upperBound - moov.offset + inMovie.count)
        video.replaceSubrange(moov.offset..<moov.offset + 4, with: withUnsafeBytes(of: size.bigEndian, Array.init))
        try Data(video + inMovie + afterMovie).write(to: clip)
        return clip
    }

    /// One of exiftool's raw samples (`../shared/corpus/media/exiftool-samples`), copied, with a
    /// JPEG preview of `width`×`height` written into it by exiftool as `previewTag` (NEF and DNG
    /// keep a full-size preview as `JpgFromRaw`, CR2 as `PreviewImage`), then `tags`; the preview
    /// carries `previewTags` of its own.
    public static func raw(
        _ sample: String, in folder: TemporaryFolder, previewTag: String, width: Int, height: Int,
        tags: [String: String] = [:], previewTags: [String: String] = [:]
    ) throws -> URL {
        let preview = try self.jpeg(
            in: folder, name: "preview-\(sample).jpg", width: width, height: height, tags: previewTags)
        let url = folder.appending(sample)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(
            at: TestEnvironment.mediaCorpus.appendingPathComponent("exiftool-samples/\(sample)"), to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        // -m: the samples' image data is cut away, which exiftool warns of but may write past.
        let written = tags.sorted { $0.key < $1.key }.map { "-\($0.key)=\($0.value)" }
        try check(
            runProgram(
                "exiftool",
                ["-m", "-q", "-overwrite_original", "-\(previewTag)<=\(preview.path)"] + written + [url.path]))
        try FileManager.default.removeItem(at: preview)
        return url
    }

    /// An ORF, PEF or ARW built by ``RawFileBuilder`` around a `width`×`height` JPEG preview (and,
    /// for a PEF, a `fullSize` JPEG in IFD2), for the raw formats of which no sample is at hand.
    public static func builtRaw(
        _ format: RawFileBuilder.Format, in folder: TemporaryFolder, name: String, make: String, model: String,
        dateTimeOriginal: String, width: Int, height: Int, fullSize: (width: Int, height: Int)? = nil,
        orientation: Int = 1
    ) throws -> URL {
        func picture(_ width: Int, _ height: Int) throws -> [UInt8] {
            let url = try self.jpeg(in: folder, name: "preview-\(name)-\(width).jpg", width: width, height: height)
            defer { try? FileManager.default.removeItem(at: url) }
            return Array(try Data(contentsOf: url))
        }
        var builder = RawFileBuilder(
            format: format, make: make, model: model, dateTimeOriginal: dateTimeOriginal,
            preview: try picture(width, height))
        builder.orientation = orientation
        if let fullSize { builder.fullSize = try picture(fullSize.width, fullSize.height) }
        let url = folder.appending(name)
        try Data(builder.bytes()).write(to: url)
        return url
    }

    /// Appends `clip` to the JPEG `still` as Samsung's motion photos carry it (``samsungTrailer(clip:type:)``).
    public static func appendSamsungTrailer(clip: URL, to still: URL, type: UInt16 = 0x0A30) throws {
        try self.append(self.samsungTrailer(clip: Array(try Data(contentsOf: clip)), type: type), to: still)
    }

    /// Samsung's trailer holding `clip`: a `MotionPhoto_Data` block (type 0x0A30), then the `SEFH`
    /// directory that lists it, its length and `SEFT` (little-endian, as exiftool's Samsung trailer
    /// reader takes it). A `type` other than 0x0A30 makes a trailer that holds no clip.
    public static func samsungTrailer(clip: [UInt8], type: UInt16 = 0x0A30) -> [UInt8] {
        let typeBytes: [UInt8] = [0, 0, UInt8(type & 0xFF), UInt8(type >> 8)]
        let name = Array("MotionPhoto_Data".utf8)
        let block = typeBytes + ExifBuilder.le32(name.count) + name + clip
        let directory =
            Array("SEFH".utf8) + ExifBuilder.le32(101) + ExifBuilder.le32(1) + typeBytes
            + ExifBuilder.le32(block.count) + ExifBuilder.le32(block.count)
        return block + directory + ExifBuilder.le32(directory.count) + Array("SEFT".utf8)
    }

    /// Appends `clip` to the HEIF `still` as a top-level box (``clipBox(clip:type:)``).
    public static func appendClipBox(clip: URL, to still: URL, type: String = "mpvd") throws {
        try self.append(self.clipBox(clip: Array(try Data(contentsOf: clip)), type: type), to: still)
    }

    /// A top-level `mpvd` box holding `clip`, where Samsung's HEIC motion photos (and Google's
    /// format for HEIF) keep it; a `type` other than `mpvd` makes a box that holds no clip.
    public static func clipBox(clip: [UInt8], type: String = "mpvd") -> [UInt8] {
        ExifBuilder.be32(clip.count + 8) + Array(type.utf8) + clip
    }

    static func append(_ bytes: [UInt8], to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
    }

    /// Writes EXIF tags with exiftool (`-TAG=VALUE`; a tag ending in `#` is written as a number).
    public static func write(_ tags: [String: String], to url: URL) throws {
        let arguments =
            ["-q", "-overwrite_original"] + tags.sorted { $0.key < $1.key }.map { "-\($0.key)=\($0.value)" }
        try check(runProgram("exiftool", arguments + [url.path]))
    }

    /// Runs `make-corpus` into a new folder and returns it.
    public static func corpus(count: Int, seed: Int, megapixels: Double, in folder: TemporaryFolder) throws -> URL {
        let target = folder.appending("corpus-\(seed)")
        try check(
            runProgram(
                TestEnvironment.repository.appendingPathComponent("scripts/make-corpus").path,
                ["\(count)", target.path, "--seed", "\(seed)", "--megapixels", "\(megapixels)"]))
        return target
    }

    /// What exiftool says of files (`-j -n`), one dictionary per file, keyed by `SourceFile`.
    public static func exiftool(_ arguments: [String], files: [URL]) throws -> [String: [String: Any]] {
        let result = try runProgram(
            "exiftool", ["-j", "-n"] + arguments + files.map(\.path), environment: ["TZ": "UTC"])
        guard let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw FixtureError("exiftool gave no JSON: \(result.stderr)")
        }
        var byFile: [String: [String: Any]] = [:]
        for entry in array { if let source = entry["SourceFile"] as? String { byFile[source] = entry } }
        return byFile
    }

    /// Width and height as libvips's own `vipsheader` reads them: an oracle outside photoingest.
    public static func dimensions(of url: URL) throws -> (width: Int, height: Int) {
        guard let size = try self.dimensions(of: [url])[url.path] else {
            throw FixtureError("vipsheader could not read \(url.path)")
        }
        return size
    }

    /// The same for many files, with one `vipsheader` (it prints `PATH: WxH …` for each file it
    /// can read), keyed by path.
    public static func dimensions(of urls: [URL]) throws -> [String: (width: Int, height: Int)] {
        guard !urls.isEmpty else { return [:] }
        let result = try runProgram("vipsheader", urls.map(\.path))
        var sizes: [String: (width: Int, height: Int)] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let colon = line.range(of: ": ", options: .backwards) else { continue }
            let size = line[colon.upperBound...].prefix { $0 != " " }.split(separator: "x")
            if size.count == 2, let width = Int(size[0]), let height = Int(size[1]) {
                sizes[String(line[..<colon.lowerBound])] = (width, height)
            }
        }
        return sizes
    }

    /// Whether a JPEG decodes whole, without a warning, by libjpeg-turbo's own `djpeg`: a
    /// thumbnail that is there but cut or corrupt fails.
    public static func decodesWhole(_ url: URL) throws -> Bool {
        let result = try runProgram("djpeg", ["-outfile", "/dev/null", url.path])
        return result.status == 0 && result.stderr.isEmpty
    }

    /// `sha256sum`'s digest of a file: the oracle for photoingest's hashes.
    public static func sha256sum(_ url: URL) throws -> String {
        let result = try runProgram("sha256sum", [url.path])
        return String(result.stdout.prefix(64))
    }

    /// The distinct photos of a `make-corpus` folder, by `sha256sum`: what a destination must end
    /// up holding once each.
    public static func photoHashes(in corpus: URL) throws -> Set<String> {
        Set(try TestEnvironment.files(under: corpus).filter { $0.pathExtension == "jpg" }.map(Self.sha256sum))
    }

    /// The hashes of the files a catalog records with one of `statuses`, read with sqlite3: what
    /// the catalog says is done, to hold against what the destination holds.
    public static func catalogHashes(_ catalog: URL, statuses: [String]) throws -> Set<String> {
        let list = statuses.map { "'\($0)'" }.joined(separator: ", ")
        let query = "SELECT f.sha256 FROM file f JOIN outcome o ON o.path = f.path WHERE o.status IN (\(list))"
        let result = try check(runProgram("sqlite3", [catalog.path, query]))
        return Set(result.stdout.split(separator: "\n").map(String.init))
    }

    @discardableResult
    public static func check(_ result: ProcessResult) throws -> ProcessResult {
        guard result.status == 0 else { throw FixtureError("command failed (\(result.status)): \(result.stderr)") }
        return result
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
