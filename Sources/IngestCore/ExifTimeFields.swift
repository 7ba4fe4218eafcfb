/// The raw EXIF values that bear on capture time, as written in the file (strings cut at NUL).
public struct ExifTimeFields: Sendable, Equatable {
    public var dateTimeOriginal: String?
    public var subSecTimeOriginal: String?
    public var offsetTimeOriginal: String?
    public var dateTimeDigitized: String?
    public var subSecTimeDigitized: String?
    public var offsetTimeDigitized: String?
    public var gpsDateStamp: String?
    public var gpsTimeStamp: [ExifRational]?
    public var gpsStatus: String?
    /// `N` or `S`.
    public var gpsLatitudeRef: String?
    /// Degrees, minutes and seconds.
    public var gpsLatitude: [ExifRational]?
    /// `E` or `W`.
    public var gpsLongitudeRef: String?
    public var gpsLongitude: [ExifRational]?

    public init(
        dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil,
        dateTimeDigitized: String? = nil, subSecTimeDigitized: String? = nil, offsetTimeDigitized: String? = nil,
        gpsDateStamp: String? = nil, gpsTimeStamp: [ExifRational]? = nil, gpsStatus: String? = nil,
        gpsLatitudeRef: String? = nil, gpsLatitude: [ExifRational]? = nil, gpsLongitudeRef: String? = nil,
        gpsLongitude: [ExifRational]? = nil
    ) {
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.dateTimeDigitized = dateTimeDigitized
        self.subSecTimeDigitized = subSecTimeDigitized
        self.offsetTimeDigitized = offsetTimeDigitized
        self.gpsDateStamp = gpsDateStamp
        self.gpsTimeStamp = gpsTimeStamp
        self.gpsStatus = gpsStatus
        self.gpsLatitudeRef = gpsLatitudeRef
        self.gpsLatitude = gpsLatitude
        self.gpsLongitudeRef = gpsLongitudeRef
        self.gpsLongitude = gpsLongitude
    }
}
