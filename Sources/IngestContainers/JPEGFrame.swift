import IngestCore

/// A JPEG's frame header (its SOF segment): the picture's size and coding process, read without
/// decoding. Raw files hold several embedded JPEGs (previews, and sometimes the raw data itself in
/// lossless JPEG), and this tells which are pictures libjpeg can show, and how big.
public struct JPEGFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The SOF marker: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC3 lossless, ….
    public var marker: UInt8

    /// Baseline, extended and progressive DCT: the processes libjpeg decodes. Lossless JPEG
    /// (how DNG and CR2 keep raw sensor data) is not a picture to show.
    public var isDisplayable: Bool { (0xC0...0xC2).contains(self.marker) && self.width > 0 && self.height > 0 }

    /// The frame header of the JPEG at the start of `bytes`, or nil when the bytes do not start a
    /// JPEG or end before its frame header.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        let reader = ByteReader(bytes)
        // Every SOFn but DHT (C4), JPG (C8) and DAC (CC); its payload: precision, height, width.
        guard
            let frame = JPEGSegment.first(
                in: reader,
                where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
            frame.payload.count >= 5
        else { return nil }
        self.height = Int(reader.u16be(frame.payload.lowerBound + 1))
        self.width = Int(reader.u16be(frame.payload.lowerBound + 3))
        self.marker = frame.marker
    }
}
