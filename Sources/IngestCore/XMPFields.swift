/// The values of an XMP sidecar that bear on capture time, as the sidecar writes them.
///
/// Only the capture time and the position: `exif:DateTimeOriginal`, else
/// `photoshop:DateCreated`, and `exif:GPSLatitude`/`GPSLongitude`. Never `xmp:ModifyDate` or
/// `xmp:MetadataDate`: those say when the sidecar was written, not when the photo was taken.
public struct XMPFields: Sendable, Equatable {
    public var dateTimeOriginal: String?
    public var dateCreated: String?
    /// `DDD,MM,SSk` or `DDD,MM.mmk` (k is N or S), as XMP writes a GPS coordinate.
    public var gpsLatitude: String?
    /// The same, with E or W.
    public var gpsLongitude: String?

    public init(
        dateTimeOriginal: String? = nil, dateCreated: String? = nil, gpsLatitude: String? = nil,
        gpsLongitude: String? = nil
    ) {
        self.dateTimeOriginal = dateTimeOriginal
        self.dateCreated = dateCreated
        self.gpsLatitude = gpsLatitude
        self.gpsLongitude = gpsLongitude
    }

    /// Whether the sidecar says nothing photoingest reads.
    public var isEmpty: Bool { self == XMPFields() }
}
