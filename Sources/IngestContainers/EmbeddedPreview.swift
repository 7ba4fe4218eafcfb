import IngestCore

/// A JPEG picture kept inside a raw file (its preview), with what it takes to show it upright.
///
/// Raw files carry several: a thumbnail of 160 px, a preview of 1-2 thousand, often one at full
/// size. Thumbnails are made from the largest, so that a 500 px thumbnail really is 500 px;
/// demosaicing the sensor data is never needed.
public struct EmbeddedPreview: Sendable, Equatable {
    /// Where the JPEG lies in the file's bytes.
    public var range: Range<Int>
    public var frame: JPEGFrame
    /// The raw file's EXIF orientation (1-8), which its previews do not repeat; nil where the
    /// preview's own EXIF says it (a RAF's JPEG).
    public var orientation: Int?

    public init(range: Range<Int>, frame: JPEGFrame, orientation: Int?) {
        self.range = range
        self.frame = frame
        self.orientation = orientation
    }

    /// The largest picture among the JPEGs a raw file of `kind` embeds; nil when it has none
    /// libjpeg can show (or `kind` is not a raw format).
    public static func largest(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> EmbeddedPreview? {
        let reader = ByteReader(bytes)
        switch kind {
        case .raf:
            guard let range = FujifilmRAF.jpegRange(reader) else { return nil }
            return self.largest(among: [range], in: reader, orientation: nil)
        case .cr3:
            // Only CMT1 is an IFD0, where the orientation is.
            let orientation = CanonCR3.structures(reader).lazy.compactMap(\.orientation).first
            return self.largest(among: CanonCR3.previewRanges(reader), in: reader, orientation: orientation ?? 1)
        case _ where kind.isRaw:
            guard let tiff = TIFFStructure(bytes) else { return nil }
            return self.largest(among: tiff.embeddedJPEGRanges, in: reader, orientation: tiff.orientation ?? 1)
        default:
            return nil
        }
    }

    static func largest(among ranges: [Range<Int>], in reader: ByteReader, orientation: Int?) -> EmbeddedPreview? {
        var best: EmbeddedPreview?
        for range in ranges {
            guard let bytes = reader.slice(range.lowerBound, range.count), let frame = JPEGFrame(bytes),
                frame.isDisplayable
            else { continue }
            if let current = best, current.frame.width * current.frame.height >= frame.width * frame.height { continue }
            best = EmbeddedPreview(range: range, frame: frame, orientation: orientation)
        }
        return best
    }
}
