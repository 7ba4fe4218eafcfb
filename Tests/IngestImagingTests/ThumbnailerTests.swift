import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestImaging

@Suite struct ThumbnailerTests {
    let folder = TemporaryFolder("thumbnails")

    init() throws {
        try ImagingLibrary.bootstrap()
    }

    func thumbnails(of url: URL, thumbnailer: Thumbnailer = Thumbnailer()) throws -> Thumbnails {
        let bytes = Array(try Data(contentsOf: url))
        return try bytes.withUnsafeBytes { try thumbnailer.thumbnails(of: $0) }
    }

    /// Writes a thumbnail out and asks vipsheader what it is: width, height, bands, interpretation.
    func inspect(_ thumbnail: Thumbnail, _ name: String) throws -> (Int, Int, String, String) {
        let url = self.folder.appending(name)
        try Data(thumbnail.jpeg).write(to: url)
        let (width, height) = try Fixtures.dimensions(of: url)
        let bands = try runProgram("vipsheader", ["-f", "bands", url.path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let interpretation = try runProgram("vipsheader", ["-f", "interpretation", url.path]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return (width, height, bands, interpretation)
    }

    @Test(
        "An sRGB profile: the ICC transform is skipped and the thumbnails are byte for byte those made with it, over the real corpus"
    )
    func skippedTransformOfSRGBChangesNothing() throws {
        var compared = 0
        for folder in ["jpeg", "heic", "webp", "avif"] {
            for url in TestEnvironment.files(under: TestEnvironment.realCorpus.appendingPathComponent(folder)) {
                let profile = try runProgram("exiftool", ["-s3", "-ICC_Profile:ProfileDescription", url.path]).stdout
                guard profile.contains("sRGB"), !profile.contains("P3") else { continue }
                let bytes = Array(try Data(contentsOf: url))
                let always = Thumbnailer(colourTransform: .always)
                let reference = try bytes.withUnsafeBytes { try always.thumbnails(of: $0) }
                let made = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0) }
                #expect(made == reference, "\(url.lastPathComponent)")
                compared += 1
            }
        }
        #expect(compared >= 8)
    }

    /// What libvips makes of a photo by itself: its 500 (`vips thumbnail`, saved at Q 82 with no
    /// metadata) and the 200 made from that 500's pixels, as photoingest makes it.
    func libvipsThumbnails(of url: URL) throws -> (large: [UInt8], small: [UInt8]) {
        let name = UUID().uuidString
        let pixels = self.folder.appending("\(name).v")
        let (large, small) = (self.folder.appending("\(name)-500.jpg"), self.folder.appending("\(name)-200.jpg"))
        let box = ["--height", "500", "--size", "down"]
        try Fixtures.check(runProgram("vips", ["thumbnail", url.path, pixels.path, "500"] + box))
        try Fixtures.check(runProgram("vips", ["jpegsave", pixels.path, large.path, "--Q", "82", "--strip"]))
        // Turned already: its orientation tag, kept in the .v, must not turn it again.
        try Fixtures.check(
            runProgram(
                "vips",
                [
                    "thumbnail_image", pixels.path, small.path + "[Q=82,strip]", "200", "--height", "200", "--size",
                    "down",
                ]
                    + ["--no-rotate"]))
        return (Array(try Data(contentsOf: large)), Array(try Data(contentsOf: small)))
    }

    /// A colour JPEG of `width`×`height` cut from a real photo enlarged `scale` times, with no
    /// profile; `orientation` written into its EXIF.
    func colourJPEG(scale: Double, width: Int, height: Int, orientation: Int? = nil) throws -> URL {
        let photo = TestEnvironment.realCorpus.appendingPathComponent("jpeg/Canon IXUS.jpg")
        let name = "colour-\(width)x\(height)-\(orientation ?? 1)"
        let enlarged = self.folder.appending("\(name).v")
        let url = self.folder.appending("\(name).jpg")
        try Fixtures.check(runProgram("vips", ["resize", photo.path, enlarged.path, "\(scale)"]))
        try Fixtures.check(
            runProgram(
                "vips", ["extract_area", enlarged.path, url.path + "[Q=90,strip]", "0", "0", "\(width)", "\(height)"]))
        if let orientation { try Fixtures.write(["Orientation#": "\(orientation)"], to: url) }
        return url
    }

    @Test(
        "A colour JPEG's thumbnails are byte for byte libvips's own (vips thumbnail, then its 500 to 200), over the real corpus and at every DCT shrink"
    )
    func jpegThumbnailsAreLibvipsOwn() throws {
        // The oracle makes no ICC transform: photos with no profile, or an sRGB one (photoingest
        // then makes none either); three bands (libvips keeps grey as grey, photoingest makes sRGB).
        let corpus = TestEnvironment.realCorpus.appendingPathComponent("jpeg")
        let listing = try runProgram("exiftool", ["-j", "-q", "-ICC_Profile:ProfileDescription", corpus.path]).stdout
        let profiled = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]])
            .compactMap { entry -> String? in
                guard let profile = entry["ProfileDescription"] as? String else { return nil }
                return profile.contains("sRGB") && !profile.contains("P3") ? nil : entry["SourceFile"] as? String
            }
        var photos = TestEnvironment.files(under: corpus).filter { url in
            !profiled.contains { URL(fileURLWithPath: $0).lastPathComponent == url.lastPathComponent }
        }
        // Shrunk 1/1 (64 px), 1/2 (2,600: 5.2 to the box), 1/4 (4,300: 8.6) and 1/8 (8,300: 16.6)
        // as they are decoded, two of them turned by their EXIF orientation; the small ones within
        // the box (the image itself), upright and turned.
        photos += [
            try self.colourJPEG(scale: 0.1, width: 64, height: 48),
            try self.colourJPEG(scale: 0.1, width: 60, height: 40, orientation: 6),
            try self.colourJPEG(scale: 5.5, width: 2_600, height: 1_900, orientation: 6),
            try self.colourJPEG(scale: 6.8, width: 4_300, height: 1_200),
            try self.colourJPEG(scale: 13, width: 8_300, height: 700, orientation: 8),
        ]
        var compared = 0
        for url in photos {
            let bands = try runProgram("vipsheader", ["-f", "bands", url.path]).stdout
            guard bands.trimmingCharacters(in: .whitespacesAndNewlines) == "3",
                let made = try? self.thumbnails(of: url)
            else { continue }
            let reference = try self.libvipsThumbnails(of: url)
            #expect(made.large.jpeg == reference.large, "500 of \(url.lastPathComponent)")
            #expect(made.small.jpeg == reference.small, "200 of \(url.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 60)
    }

    @Test("libvips's shrink-on-load for a JPEG: the largest of 8, 4, 2 leaving twice the box, each axis clipped")
    func shrinkOnLoadIsLibvipsChoice() {
        #expect(Thumbnailer.libvipsShrink(width: 64, height: 48, target: 500) == 1)
        #expect(Thumbnailer.libvipsShrink(width: 1_999, height: 1_000, target: 500) == 1)
        #expect(Thumbnailer.libvipsShrink(width: 2_000, height: 1_000, target: 500) == 2)
        #expect(Thumbnailer.libvipsShrink(width: 1_000, height: 4_000, target: 500) == 4)
        #expect(Thumbnailer.libvipsShrink(width: 8_000, height: 6_000, target: 500) == 8)
        #expect(Thumbnailer.libvipsShrink(width: 80_000, height: 6_000, target: 500) == 8)
        // A strip: shrinking it 20 times would leave no row; each axis is clipped to its length.
        #expect(Thumbnailer.libvipsShrink(width: 10_000, height: 3, target: 500) == 1)
        #expect(Thumbnailer(jpegShrink: .toTheTarget).dctShrink(width: 4_000, height: 3_000) == 8)
        #expect(Thumbnailer(jpegShrink: .toTheTarget).dctShrink(width: 900, height: 600) == 1)
    }

    /// Per-band means of an image file, as vips measures them.
    func means(_ url: URL) throws -> [Double] {
        let stats = self.folder.appending("stats-\(UUID().uuidString).v")
        try Fixtures.check(runProgram("vips", ["stats", url.path, stats.path]))
        return try (1...3).map { band in
            let text = try runProgram("vips", ["getpoint", stats.path, "4", "\(band)"]).stdout
            return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test("No profile: the colours are the file's own (the mean of each band kept within half a level)")
    func untaggedColoursAreKept() throws {
        let source = try Fixtures.corpus(count: 1, seed: 91, megapixels: 2, in: self.folder)
        let url = try #require(TestEnvironment.files(under: source).first { $0.pathExtension == "jpg" })
        let made = try self.thumbnails(of: url)
        let thumbnail = self.folder.appending("untagged-500.jpg")
        try Data(made.large.jpeg).write(to: thumbnail)
        for (original, shrunk) in zip(try self.means(url), try self.means(thumbnail)) {
            #expect(abs(original - shrunk) < 0.5, "band mean \(original) became \(shrunk)")
        }
    }

    @Test("Grey with no profile: each channel of the thumbnail keeps the grey's mean within half a level")
    func untaggedGreyIsKept() throws {
        let source = try #require(
            TestEnvironment.files(under: TestEnvironment.realCorpus.appendingPathComponent("jpeg")).first)
        let url = self.folder.appending("grey.jpg")
        try Fixtures.check(runProgram("vips", ["colourspace", source.path, url.path + "[Q=90,strip]", "b-w"]))
        let stats = self.folder.appending("grey-stats.v")
        try Fixtures.check(runProgram("vips", ["stats", url.path, stats.path]))
        let grey = try #require(
            Double(
                try runProgram("vips", ["getpoint", stats.path, "4", "0"]).stdout.trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        let made = try self.thumbnails(of: url)
        let thumbnail = self.folder.appending("grey-500.jpg")
        try Data(made.large.jpeg).write(to: thumbnail)
        #expect(try self.inspect(made.large, "grey-500.jpg").2 == "3")
        for band in try self.means(thumbnail) {
            #expect(abs(band - grey) < 0.5, "the grey's mean \(grey) became \(band)")
        }
    }

    @Test(
        "The same pixels tagged sRGB, untagged, or tagged Display P3: the first two give the same thumbnails, P3 is converted"
    )
    func taggedProfilesDecide() throws {
        let source = try #require(
            TestEnvironment.files(under: TestEnvironment.realCorpus.appendingPathComponent("jpeg")).first)
        // Through a PNG without metadata, so that the three JPEGs differ in their profile only.
        let pixels = self.folder.appending("pixels.png")
        try Fixtures.check(runProgram("vips", ["copy", source.path, pixels.path + "[strip]"]))
        var made: [String: Thumbnails] = [:]
        for (name, options) in [("untagged", ""), ("srgb", ",profile=srgb"), ("p3", ",profile=p3")] {
            let url = self.folder.appending("\(name).jpg")
            try Fixtures.check(runProgram("vips", ["copy", pixels.path, url.path + "[Q=90\(options)]"]))
            made[name] = try self.thumbnails(of: url)
        }
        #expect(made["srgb"] == made["untagged"])
        #expect(made["p3"] != made["srgb"], "a Display P3 photo was not converted to sRGB")
    }

    @Test func longestEdgeIs500And200WithTheAspectKept() throws {
        let url = try Fixtures.jpeg(in: self.folder, width: 1600, height: 1200)
        let made = try self.thumbnails(of: url)
        let large = try self.inspect(made.large, "large.jpg")
        let small = try self.inspect(made.small, "small.jpg")
        #expect(large.0 == 500 && large.1 == 375)
        #expect(small.0 == 200 && small.1 == 150)
        #expect(made.large.width == 500 && made.small.height == 150)
    }

    /// SSIM of `thumbnail` against `reference` (same size), all planes, as ffmpeg measures it.
    func ssim(_ thumbnail: Thumbnail, _ reference: Thumbnail) throws -> Double {
        let (first, second) = (self.folder.appending("ssim-a.jpg"), self.folder.appending("ssim-b.jpg"))
        try Data(thumbnail.jpeg).write(to: first)
        try Data(reference.jpeg).write(to: second)
        let result = try runProgram(
            "ffmpeg",
            ["-v", "info", "-nostats", "-i", first.path, "-i", second.path, "-lavfi", "ssim", "-f", "null", "-"])
        let all = try #require(result.stderr.range(of: "All:"))
        return try #require(Double(result.stderr[all.upperBound...].prefix { $0.isNumber || $0 == "." }))
    }

    @Test(
        "--fast-thumbnails: a JPEG decoded at the largest DCT shrink that still gives 500 px, upright, close to the default"
    )
    func fastThumbnailsStayCloseToTheDefault() throws {
        let fast = Thumbnailer(jpegShrink: .toTheTarget)
        // A real 4608x3456 camera photo: at 1/8 it is 576 px wide, left to shrink to 500.
        let real = TestEnvironment.realCorpus.appendingPathComponent("jpeg/Kodak PIXPRO FZ201.jpg")
        let usual = try self.thumbnails(of: real)
        let quick = try self.thumbnails(of: real, thumbnailer: fast)
        #expect(quick.large.width == 500 && quick.large.height == 375)
        #expect(quick.small.width == 200 && quick.small.height == 150)
        #expect(quick.large.jpeg != usual.large.jpeg, "the fast path decoded as the default does")
        let ssim = try self.ssim(quick.large, usual.large)
        #expect(ssim > 0.95 && ssim < 1, "SSIM \(ssim)")

        // Exactly 1/8 of a sensor image marked 'rotate 90': nothing left to resize, turned upright.
        let rotated = try Fixtures.jpeg(
            in: self.folder, name: "rotated.jpg", width: 4000, height: 3000, tags: ["Orientation#": "6"])
        let upright = try self.thumbnails(of: rotated, thumbnailer: fast)
        #expect(try self.inspect(upright.large, "upright.jpg").0 == 375)
        #expect(try self.inspect(upright.large, "upright.jpg").1 == 500)

        // What is not a JPEG is decoded as always.
        let heic = try #require(
            TestEnvironment.files(under: TestEnvironment.realCorpus.appendingPathComponent("heic")).first)
        #expect(try self.thumbnails(of: heic, thumbnailer: fast) == self.thumbnails(of: heic))
    }

    @Test("EXIF orientation is applied: a landscape sensor image marked 'rotate 90' becomes portrait")
    func orientationApplied() throws {
        let url = try Fixtures.jpeg(in: self.folder, width: 800, height: 600, tags: ["Orientation#": "6"])
        let made = try self.thumbnails(of: url)
        #expect(try self.inspect(made.large, "large.jpg").0 == 375)
        #expect(try self.inspect(made.large, "large.jpg").1 == 500)
        #expect(try self.inspect(made.small, "small.jpg").1 == 200)
    }

    @Test("Small images are never enlarged: no larger than the small size, both thumbnails are one JPEG")
    func smallImagesAreNeverUpscaled() throws {
        let url = try Fixtures.jpeg(in: self.folder, width: 150, height: 90)
        let made = try self.thumbnails(of: url)
        #expect(made.large.width == 150 && made.large.height == 90)
        #expect(made.small.width == 150 && made.small.height == 90)
        let decoded = try self.inspect(made.small, "small.jpg")
        #expect(decoded.0 == 150 && decoded.1 == 90)
        #expect(made.small.jpeg == made.large.jpeg)
        // Between the two sizes: the large one is the image, the small one shrunk.
        let between = try self.thumbnails(
            of: try Fixtures.jpeg(in: self.folder, name: "between.jpg", width: 300, height: 180))
        #expect(between.large.width == 300 && between.small.width == 200 && between.small.height == 120)
    }

    @Test("Greyscale and transparent images come out as three-band sRGB JPEGs")
    func convertedToSRGB() throws {
        let grey = try Fixtures.jpeg(in: self.folder, width: 300, height: 300)
        let greyLarge = try self.inspect(try self.thumbnails(of: grey).large, "grey.jpg")
        #expect(greyLarge.2 == "3" && greyLarge.3.contains("sRGB"))

        let transparent = self.folder.appending("alpha.png")
        try runProgram("vips", ["black", self.folder.appending("black.v").path, "300", "200", "--bands", "4"])
        try runProgram(
            "vips", ["copy", self.folder.appending("black.v").path, transparent.path, "--interpretation", "srgb"])
        let flattened = try self.thumbnails(of: transparent)
        let inspected = try self.inspect(flattened.large, "flat.jpg")
        #expect(inspected.0 == 300 && inspected.2 == "3" && inspected.3.contains("sRGB"))
    }

    @Test func realPhoneAndCameraFilesOfEveryContainer() throws {
        let corpus = TestEnvironment.realCorpus
        for name in [
            "heic/IMG_2927.HEIC", "avif/32Bit-72dpi-sRGB-800x600.avif", "webp/HTC Desire.webp", "jpeg/Canon IXUS.jpg",
        ] {
            let made = try self.thumbnails(of: corpus.appendingPathComponent(name))
            #expect(max(made.large.width, made.large.height) == 500, "\(name)")
            #expect(max(made.small.width, made.small.height) == 200, "\(name)")
        }
    }

    @Test("Too many pixels are refused before decoding")
    func pixelLimit() throws {
        let url = try Fixtures.jpeg(in: self.folder, width: 400, height: 300)
        #expect(throws: IngestError.self) { try self.thumbnails(of: url, thumbnailer: Thumbnailer(maxPixels: 100_000)) }
        do {
            _ = try self.thumbnails(of: url, thumbnailer: Thumbnailer(maxPixels: 100_000))
        } catch let error as IngestError {
            #expect(error.code == .tooManyPixels)
            #expect(error.message.contains("400×300"))
        }
    }

    @Test func corruptDataIsAnErrorWithLibvipsReason() throws {
        let url = try Fixtures.jpeg(in: self.folder, width: 400, height: 300)
        var bytes = Array(try Data(contentsOf: url))
        bytes.removeLast(bytes.count / 2)
        do {
            _ = try bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0) }
            Issue.record("a truncated JPEG was thumbnailed")
        } catch let error as IngestError {
            #expect(error.code == .decodeFailed)
            #expect(!error.message.isEmpty)
        }
        #expect(throws: IngestError.self) { try [UInt8]().withUnsafeBytes { try Thumbnailer().thumbnails(of: $0) } }
    }

    @Test("Decodes failing at once on other threads never lend each other their libvips messages")
    func failuresKeepTheirOwnReasons() throws {
        let jpeg = Array(try Data(contentsOf: try Fixtures.jpeg(in: self.folder, width: 640, height: 480)))
        let truncatedJPEG = Array(jpeg.prefix(jpeg.count / 2))
        let png = self.folder.appending("whole.png")
        try runProgram(
            "vips",
            ["copy", try Fixtures.jpeg(in: self.folder, name: "for-png.jpg", width: 640, height: 480).path, png.path])
        let pngBytes = Array(try Data(contentsOf: png))
        let truncatedPNG = Array(pngBytes.prefix(pngBytes.count / 2))
        // Whole HEICs decode with libheif lines in the buffer ("bad seek"), a failure or not.
        let heics = TestEnvironment.files(under: TestEnvironment.realCorpus.appendingPathComponent("heic"))
            .filter { $0.pathExtension.lowercased() == "heic" }.prefix(2)
        let heicBytes = try heics.map { Array(try Data(contentsOf: $0)) }
        let inputs: [(bytes: [UInt8], own: String, foreign: [String])] = [
            (truncatedJPEG, "Jpeg", ["png", "PNG", "heif", "seek"]),
            (truncatedPNG, "png", ["Jpeg", "JPEG", "heif", "seek"]),
        ]
        let reasons = UnsafeTransfer<[[String]]>()
        reasons.value = [[], []]
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            if worker >= 6 {
                for bytes in heicBytes + heicBytes {
                    _ = try? bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0) }
                }
                return
            }
            let input = inputs[worker % 2]
            for _ in 0..<15 {
                do {
                    _ = try input.bytes.withUnsafeBytes { try Thumbnailer().thumbnails(of: $0) }
                } catch let error as IngestError {
                    reasons.mutate { $0[worker % 2].append(error.message) }
                } catch {
                    reasons.mutate { $0[worker % 2].append("\(error)") }
                }
            }
        }
        let collected = reasons.value ?? []
        for (index, input) in inputs.enumerated() {
            #expect(collected[index].count == 45, "every truncated file must fail")
            for reason in collected[index] {
                #expect(reason.contains(input.own), "\(reason)")
                #expect(!input.foreign.contains { reason.contains($0) }, "another file's message: \(reason)")
            }
        }
    }
}
