import IngestCore

/// Reads the capture-time fields of a photo's EXIF: found by ``ExifLocator``, walked by
/// ``TIFFStructure``.
///
/// Nothing is dropped for not following the specification: a DateTimeOriginal stored in IFD0
/// instead of the EXIF IFD is real. Values are read from the raw entry bytes, strings cut at the
/// first NUL.
public enum MetadataReader {
    /// The time fields of the file's EXIF, or nil when it carries none.
    public static func timeFields(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> ExifTimeFields? {
        ExifTimeFields(ExifLocator.exif(in: bytes, kind: kind))
    }
}
