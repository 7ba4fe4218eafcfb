/// The raw values of a video's `moov` box that bear on its capture time and orientation, as
/// written in the file.
public struct QuickTimeFields: Sendable, Equatable {
    /// `mvhd` creation time: seconds since 1904-01-01, which QuickTime defines as UTC (0: unset).
    public var movieCreated: UInt64?
    /// Apple's `com.apple.quicktime.creationdate` key: ISO 8601 text with the offset of its clock.
    public var appleCreationDate: String?
    /// The user-data date: `©day` (QuickTime, iTunes) or `date` (3GPP, Android).
    public var userDataDate: String?
    /// ISO 6709 position text (`+37.3318-122.0312/`): Apple's location key or `©xyz`.
    public var location: String?
    /// Degrees clockwise that the video track's display matrix turns its frames: 0, 90, 180 or 270.
    public var rotation: Int
    /// Apple's `com.apple.quicktime.content.identifier` key: the clip of a Live Photo names its still.
    public var contentIdentifier: String?
    /// The camera's maker and model: Apple's `com.apple.quicktime.make` and `.model` keys, or
    /// `©mak` and `©mod` in `udta`.
    public var make: String?
    public var model: String?
    /// The body's serial number, where the video names it: Canon's `uuid` box, Nikon's `NCDT`,
    /// GoPro's `GPMF`, Panasonic's `PANA`, Sony's NonRealTimeMeta.
    public var serial: String?

    public init(
        movieCreated: UInt64? = nil, appleCreationDate: String? = nil, userDataDate: String? = nil,
        location: String? = nil, rotation: Int = 0, contentIdentifier: String? = nil
    ) {
        self.contentIdentifier = contentIdentifier
        self.movieCreated = movieCreated
        self.appleCreationDate = appleCreationDate
        self.userDataDate = userDataDate
        self.location = location
        self.rotation = rotation
    }
}
