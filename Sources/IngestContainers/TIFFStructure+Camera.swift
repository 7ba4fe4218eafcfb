import Foundation
import IngestCore

/// What a camera's TIFF-based file says about itself: maker, orientation, raw data and previews.
extension TIFFStructure {
    /// IFD0's Make, upper-cased and trimmed.
    public var make: String? {
        self.entry(0x010F, in: [.main(0)]).flatMap(self.string)?.uppercased().trimmingCharacters(in: .whitespaces)
    }

    /// The EXIF orientation (1-8) of the main image: IFD0's, else the first SubIFD's that has one.
    public var orientation: Int? {
        guard let entry = self.entry(0x0112, in: [.main(0), .sub]), let value = self.unsigned(entry),
            (1...8).contains(value)
        else { return nil }
        return Int(value)
    }

    /// Whether a directory holds camera sensor data: a colour filter array or linear raw
    /// (PhotometricInterpretation 32803, 34892), or a makers' raw compression (Nikon 34713,
    /// Sony 32767, Pentax 65535, Panasonic 34316).
    public var hasRawData: Bool {
        self.directories.contains { directory in
            let photometric = directory.entry(0x0106).flatMap { self.unsigned($0) }
            let compression = directory.entry(0x0103).flatMap { self.unsigned($0) }
            return [32803, 34892].contains(photometric ?? 0) || [34713, 32767, 65535, 34316].contains(compression ?? 0)
        }
    }

    /// The raw format of a TIFF-structured file whose header alone does not say it (CR2, RW2 and
    /// ORF have magic numbers of their own); nil for a TIFF image.
    public var rawKind: MediaKind? {
        if self.entry(0xC612, in: [.main(0)]) != nil { return .dng }
        guard self.hasRawData, let make = self.make else { return nil }
        if make.hasPrefix("NIKON") { return .nef }
        if make.hasPrefix("SONY") { return .arw }
        if make.hasPrefix("PENTAX") || make.hasPrefix("RICOH") || make.hasPrefix("ASAHI") { return .pef }
        return nil
    }

    /// Every JPEG the directories point at: JPEGInterchangeFormat and its length, a single strip
    /// (CR2 and DNG previews are stored as one), Panasonic's JpgFromRaw (tag 0x2E, in IFD0), and
    /// the previews in Olympus's and Pentax's maker notes.
    public var embeddedJPEGRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        for directory in self.directories {
            switch directory.kind {
            case .main, .sub: break
            default: continue
            }
            if let start = directory.entry(0x0201), let length = directory.entry(0x0202),
                let range = self.range(offset: start, length: length)
            {
                ranges.append(range)
            }
            if let strips = directory.entry(0x0111), let counts = directory.entry(0x0117), strips.count == 1,
                counts.count == 1, let range = self.range(offset: strips, length: counts)
            {
                ranges.append(range)
            }
            if case .main(0) = directory.kind, let blob = directory.entry(0x002E), blob.type == 7 {
                ranges.append(blob.valueOffset..<blob.valueOffset + blob.count)
            }
        }
        return ranges + (MakerNote(in: self)?.previewRanges ?? [])
    }
}
