import CExifShim
import IngestCore

/// Reads the capture-time fields of a photo's EXIF with libexif.
///
/// The loader's options are set so that nothing is dropped: a DateTimeOriginal stored in IFD0
/// instead of the EXIF IFD is real, and "following the specification" would delete it. Values are
/// read from the raw entry bytes, strings cut at the first NUL.
public enum MetadataReader {
    /// The time fields of the file's EXIF, or nil when it carries no EXIF that libexif can read.
    public static func timeFields(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> ExifTimeFields? {
        guard let tiff = ExifLocator.tiffBlock(in: bytes, kind: kind) else { return nil }
        return self.timeFields(tiff: tiff)
    }

    /// Parses a TIFF-structured EXIF block.
    static func timeFields(tiff: UnsafeRawBufferPointer) -> ExifTimeFields? {
        guard let data = ExifDocument(tiff: tiff) else { return nil }
        return ExifTimeFields(
            dateTimeOriginal: data.string(0x9003),
            subSecTimeOriginal: data.string(0x9291),
            offsetTimeOriginal: data.string(0x9011),
            dateTimeDigitized: data.string(0x9004),
            subSecTimeDigitized: data.string(0x9292),
            offsetTimeDigitized: data.string(0x9012),
            gpsDateStamp: data.string(0x001D, ifd: EXIF_IFD_GPS),
            gpsTimeStamp: data.rationals(0x0007, ifd: EXIF_IFD_GPS),
            gpsStatus: data.string(0x0009, ifd: EXIF_IFD_GPS))
    }
}

/// One libexif `ExifData`, freed when this goes away.
final class ExifDocument {
    private let data: UnsafeMutablePointer<ExifData>

    /// The TIFF tags in IFD0, EXIF and Interoperability IFDs that hold capture time (GPS tags share numbers
    /// with Interoperability tags, so they are looked up in the GPS IFD alone).
    private static let searchedIFDs = [EXIF_IFD_EXIF, EXIF_IFD_0, EXIF_IFD_1]

    init?(tiff: UnsafeRawBufferPointer) {
        guard let data = exif_data_new() else { return nil }
        self.data = data
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        // libexif expects the APP1 form: the `Exif\0\0` header, then the TIFF structure.
        var block: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        block.append(contentsOf: tiff)
        block.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32(clamping: $0.count)) }
        let hasEntries = (0..<Int(EXIF_IFD_COUNT.rawValue)).contains { index in
            (ingest_exif_content(data, ExifIfd(UInt32(index)))?.pointee.count ?? 0) > 0
        }
        if !hasEntries { return nil }
    }

    deinit { exif_data_unref(self.data) }

    private func entry(_ tag: UInt32, ifd: ExifIfd?) -> UnsafeMutablePointer<ExifEntry>? {
        let ifds = ifd.map { [$0] } ?? Self.searchedIFDs
        for ifd in ifds {
            if let content = ingest_exif_content(self.data, ifd),
                let entry = exif_content_get_entry(content, ExifTag(tag))
            {
                return entry
            }
        }
        return nil
    }

    /// An ASCII (or UNDEFINED, which some cameras use) value, cut at the first NUL.
    func string(_ tag: UInt32, ifd: ExifIfd? = nil) -> String? {
        guard let entry = self.entry(tag, ifd: ifd), let bytes = entry.pointee.data else { return nil }
        let format = entry.pointee.format
        guard format == EXIF_FORMAT_ASCII || format == EXIF_FORMAT_UNDEFINED else { return nil }
        let raw = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let text = raw.prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// A RATIONAL array, in the block's byte order.
    func rationals(_ tag: UInt32, ifd: ExifIfd? = nil) -> [IngestCore.ExifRational]? {
        guard let entry = self.entry(tag, ifd: ifd), let bytes = entry.pointee.data,
            entry.pointee.format == EXIF_FORMAT_RATIONAL
        else { return nil }
        let count = min(Int(entry.pointee.components), Int(entry.pointee.size) / 8)
        let order = exif_data_get_byte_order(self.data)
        return (0..<count).map { index in
            let value = exif_get_rational(bytes + index * 8, order)
            return IngestCore.ExifRational(UInt32(value.numerator), UInt32(value.denominator))
        }
    }
}
