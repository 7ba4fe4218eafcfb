import CVipsShim
import IngestContainers
import IngestCore

/// A JPEG thumbnail and its size in pixels.
public struct Thumbnail: Sendable, Equatable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
}

/// The two thumbnails every stored photo gets.
public struct Thumbnails: Sendable, Equatable {
    /// Longest edge 500 px (or the original's, if smaller).
    public var large: Thumbnail
    /// Longest edge 200 px (or the original's, if smaller).
    public var small: Thumbnail
    /// Set when the thumbnails are smaller than asked because the picture they were made from is:
    /// a raw photo whose largest preview is small says so rather than passing it off as 500 px.
    public var note: String?

    public init(large: Thumbnail, small: Thumbnail, note: String? = nil) {
        self.large = large
        self.small = small
        self.note = note
    }
}

/// Makes the 500 px and 200 px JPEG thumbnails of a photo with libvips, from one decode.
///
/// The 500 is made with shrink-on-load straight from the file's bytes, EXIF orientation
/// applied and converted to sRGB, and held decoded in memory; the 200 is made from it. That
/// costs about 60% of two independent thumbnails.
public struct Thumbnailer: Sendable {
    public var largeEdge: Int
    public var smallEdge: Int
    public var quality: Int
    /// Images above this many pixels are refused before decoding: a small file can declare a
    /// huge image (a decompression bomb).
    public var maxPixels: Int
    /// When the colour goes through an ICC transform to sRGB: only when the input is not sRGB
    /// already (the default), or for every photo (what the benchmarks compare against).
    public var colourTransform: ColourTransform
    /// How far a JPEG is shrunk in the DCT as it is decoded.
    public var jpegShrink: JPEGShrink

    public enum ColourTransform: Sendable {
        case whenNeeded
        case always
    }

    public enum JPEGShrink: Sendable {
        /// By as much as leaves twice the large thumbnail (libvips's choice: a 12 MP photo at 1/4),
        /// so that the lanczos3 resize has pixels to work with.
        case twiceTheTarget
        /// By as much as leaves the large thumbnail itself (`--fast-thumbnails`: a 12 MP photo at
        /// 1/8, nothing left to resize): a fifth less CPU for the whole run, and thumbnails less
        /// close to the full decode (SSIM 0.986 against 0.996 on real photos; docs/performance.md).
        case toTheTarget
    }

    public init(
        largeEdge: Int = 500, smallEdge: Int = 200, quality: Int = 82, maxPixels: Int = 100_000_000,
        colourTransform: ColourTransform = .whenNeeded, jpegShrink: JPEGShrink = .twiceTheTarget
    ) {
        self.largeEdge = largeEdge
        self.smallEdge = smallEdge
        self.quality = quality
        self.maxPixels = maxPixels
        self.colourTransform = colourTransform
        self.jpegShrink = jpegShrink
    }

    /// Truncated and corrupt images fail instead of being stored with grey where the data ran out;
    /// mere warnings (common in real cameras' files) do not.
    static let loadOptions = "fail_on=error"

    /// Decodes `bytes` once and encodes both thumbnails. A raw photo (`kind`) is shown through the
    /// largest JPEG preview it embeds, turned by the raw file's orientation.
    ///
    /// - Throws: ``IngestError`` with `.tooManyPixels`, or `.decodeFailed` and libvips's reason.
    public func thumbnails(of bytes: UnsafeRawBufferPointer, kind: MediaKind? = nil) throws(IngestError) -> Thumbnails {
        var source = bytes
        var orientation: Int?
        var note: String?
        if let kind, kind.isRaw {
            guard let preview = EmbeddedPreview.largest(in: bytes, kind: kind) else {
                throw IngestError(.noPreview, "the raw photo embeds no JPEG preview to make thumbnails from")
            }
            source = UnsafeRawBufferPointer(rebasing: bytes[preview.range])
            orientation = preview.orientation
            if max(preview.frame.width, preview.frame.height) < self.largeEdge {
                note =
                    "the raw photo's largest embedded preview is \(preview.frame.width)×\(preview.frame.height): "
                    + "its thumbnails are no bigger"
            }
        }
        // libvips starts on first use: a re-run with nothing new to decode never pays for it.
        try ImagingLibrary.bootstrap()
        var thumbnails: Thumbnails
        do {
            thumbnails = try VipsError.lock.shared { () throws(IngestError) in
                try self.make(source, orientation: orientation)
            }
        } catch  where error.code == .decodeFailed {
            // libvips has one error buffer for the process: a failure's text can hold lines that
            // other decodes wrote meanwhile. Failing again alone gives this file's reason only.
            thumbnails = try VipsError.lock.exclusive { () throws(IngestError) in
                vips_error_clear()
                return try self.make(source, orientation: orientation)
            }
        }
        thumbnails.note = note
        return thumbnails
    }

    /// `orientation`, when given, replaces the image's own (none, for most raw previews).
    private func make(_ bytes: UnsafeRawBufferPointer, orientation: Int?) throws(IngestError) -> Thumbnails {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw IngestError(.decodeFailed, "empty file")
        }
        // libvips reads the buffer lazily; every use of it ends inside this function.
        let mutableBase = UnsafeMutableRawPointer(mutating: base)
        // Turned below, not by libvips's thumbnail: it copies the image to memory first, through
        // its thread pool, where this turns what the worker has computed.
        let noRotate: Int32 = 1
        var shrunk: ImageRef
        if MediaSniffer.sniff(bytes) == .supported(.jpeg), let frame = JPEGFrame(bytes), frame.isDisplayable {
            // A JPEG's size is in its frame header: libvips opens it once, shrunk as it decodes.
            // thumbnail_buffer would open it twice more (its header, then shrunk), each time
            // parsing the EXIF block into metadata; the thumbnails are the same.
            try self.refuseTooManyPixels(width: frame.width, height: frame.height)
            let factor = self.dctShrink(width: frame.width, height: frame.height)
            let decoded = try ImageRef.make("reading the image header") {
                ingest_vips_jpeg_shrunk(mutableBase, bytes.count, &$0, Int32(factor), Self.loadOptions)
            }
            let export = self.export(decoded)
            // Within the box and in no need of a colour transform (a small photo): the thumbnail
            // is the image itself, and vips_thumbnail's five operations would copy it.
            if factor == 1, decoded.fits(within: self.largeEdge), export == 0 {
                shrunk = decoded
            } else {
                shrunk = try ImageRef.make("decoding") {
                    ingest_vips_thumbnail_decoded(decoded.pointer, &$0, Int32(self.largeEdge), export, noRotate)
                }
            }
        } else {
            let header = try ImageRef.make("reading the image header") {
                ingest_vips_header_from_buffer(base, bytes.count, &$0)
            }
            try self.refuseTooManyPixels(
                width: Int(vips_image_get_width(header.pointer)), height: Int(vips_image_get_height(header.pointer)))
            let export = self.export(header)
            shrunk = try ImageRef.make("decoding") {
                ingest_vips_thumbnail_buffer(
                    mutableBase, bytes.count, &$0, Int32(self.largeEdge), export, noRotate, Self.loadOptions)
            }
        }
        let turn = orientation ?? Int(vips_image_get_orientation(shrunk.pointer))
        var large = try self.displayable(shrunk).copiedToMemory()
        // Always for a preview, 1 included: its own orientation tag must not survive to turn the 200.
        if orientation != nil || turn > 1 {
            let upright = large
            large = try ImageRef.make("turning the image") {
                ingest_vips_orient(upright.pointer, &$0, Int32(turn))
            }.copiedToMemory()
        }
        return try self.bothSizes(from: large)
    }

    /// Whether libvips is to export sRGB through an ICC transform (1) or not (0), from the image's header.
    private func export(_ header: ImageRef) -> Int32 {
        self.colourTransform == .always || Self.needsColourTransform(header) ? 1 : 0
    }

    /// Both thumbnails from the large one, in memory: encoded, then shrunk to the small size.
    private func bothSizes(from large: ImageRef) throws(IngestError) -> Thumbnails {
        let largeJPEG = try large.jpeg(quality: self.quality)
        // One size asked for twice (the report's pictures), or a photo no larger than the small
        // size (never enlarged: both are the photo itself): one encode.
        guard self.smallEdge != self.largeEdge, !large.fits(within: self.smallEdge) else {
            return Thumbnails(large: largeJPEG, small: largeJPEG)
        }
        let small = try ImageRef.make("shrinking") {
            ingest_vips_thumbnail_image(large.pointer, &$0, Int32(self.smallEdge))
        }
        return Thumbnails(large: largeJPEG, small: try small.copiedToMemory().jpeg(quality: self.quality))
    }

    /// Refuses an image that declares more than ``maxPixels``, before it is decoded.
    private func refuseTooManyPixels(width: Int, height: Int) throws(IngestError) {
        guard width * height <= self.maxPixels else {
            throw IngestError(
                .tooManyPixels,
                "too many pixels: the image declares \(width)×\(height) pixels, over the limit of \(self.maxPixels)"
                    + " (--max-pixels)")
        }
    }

    /// How far a JPEG of `width`×`height` is shrunk in the DCT as it is decoded (1, 2, 4 or 8).
    func dctShrink(width: Int, height: Int) -> Int {
        switch self.jpegShrink {
        case .twiceTheTarget: Self.libvipsShrink(width: width, height: height, target: self.largeEdge)
        case .toTheTarget: Self.dctShrink(longestEdge: max(width, height), target: self.largeEdge) ?? 1
        }
    }

    /// libvips's own choice in `vips_thumbnail` (8.14's `vips_thumbnail_find_jpegshrink`), for a
    /// square box: the shrink to the box, each axis at most its own length, then the largest DCT
    /// shrink that leaves at least twice that for the resize after.
    static func libvipsShrink(width: Int, height: Int, target: Int) -> Int {
        let toTheBox = max(1, Double(max(width, height)) / Double(target))
        let shrink = min(min(toTheBox, Double(width)), min(toTheBox, Double(height)))
        return shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1
    }

    /// The largest DCT shrink of a JPEG (2, 4 or 8: libjpeg rounds the size up) that still
    /// leaves `target` pixels on the longest edge; nil when none does.
    static func dctShrink(longestEdge: Int, target: Int) -> Int? {
        [8, 4, 2].first { (longestEdge + $0 - 1) / $0 >= target }
    }

    /// The thumbnails of a video, from one of its frames, turned upright.
    public func thumbnails(of frame: VideoFrame) throws(IngestError) -> Thumbnails {
        try ImagingLibrary.bootstrap()
        return try VipsError.lock.shared { () throws(IngestError) -> Thumbnails in
            // withUnsafeBytes only rethrows untyped errors; carry the typed one out in a Result. The
            // pixels are copied, so the image outlives the closure.
            let read = frame.rgb.withUnsafeBytes { buffer in
                Result { () throws(IngestError) -> ImageRef in
                    try ImageRef.make("reading the frame") {
                        ingest_vips_image_from_rgb(
                            buffer.baseAddress, buffer.count, Int32(frame.width), Int32(frame.height), &$0)
                    }
                }
            }
            var image = try read.get()
            if frame.rotation != 0 {
                let input = image
                image = try ImageRef.make("turning the frame") {
                    ingest_vips_rotate(input.pointer, &$0, Int32(frame.rotation))
                }
            }
            let upright = image
            let large = try ImageRef.make("shrinking") {
                ingest_vips_thumbnail_image(upright.pointer, &$0, Int32(self.largeEdge))
            }.copiedToMemory()
            return try self.bothSizes(from: large)
        }
    }

    /// Whether the thumbnail must go through an ICC transform to sRGB. For an RGB image with no
    /// profile, or with an sRGB one, that transform is an identity (the thumbnails come out the
    /// same) that costs a transform built for every photo: skipped. An 8-bit grey image with no
    /// profile is shown as browsers show it, its grey level on all three channels (the transform
    /// through libvips's fallback grey profile shifted greys by up to 18 levels, and cost 10 ms a
    /// photo). Anything else (CMYK, a grey profile, Display P3, Adobe RGB, a profile that cannot be
    /// read) keeps it.
    static func needsColourTransform(_ header: ImageRef) -> Bool {
        let bands = vips_image_get_bands(header.pointer)
        let interpretation = vips_image_get_interpretation(header.pointer)
        let isRGB = interpretation == VIPS_INTERPRETATION_sRGB && (bands == 3 || bands == 4)
        let isGrey =
            interpretation == VIPS_INTERPRETATION_B_W && (bands == 1 || bands == 2)
            && vips_image_get_format(header.pointer) == VIPS_FORMAT_UCHAR
        guard isRGB || isGrey else { return true }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_typeof(header.pointer, "icc-profile-data") != 0,
            vips_image_get_blob(header.pointer, "icc-profile-data", &data, &length) == 0, let data
        else { return false }
        return !isRGB || ICCProfile(UnsafeRawBufferPointer(start: data, count: length))?.isSRGB != true
    }

    /// sRGB with no alpha: what a JPEG thumbnail can show. Transparency is flattened onto white.
    private func displayable(_ image: ImageRef) throws(IngestError) -> ImageRef {
        var image = image
        if vips_image_hasalpha(image.pointer) != 0 {
            let input = image
            image = try ImageRef.make("flattening transparency") { ingest_vips_flatten_white(input.pointer, &$0) }
        }
        // 8-bit sRGB already (most photos): the conversion would be a copy, an operation's cost.
        if vips_image_get_interpretation(image.pointer) == VIPS_INTERPRETATION_sRGB,
            vips_image_get_bands(image.pointer) == 3, vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR
        {
            return image
        }
        let input = image
        return try ImageRef.make("converting to sRGB") { ingest_vips_colourspace_srgb(input.pointer, &$0) }
    }
}
