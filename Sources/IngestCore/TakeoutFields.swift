import Foundation

/// What a Google Takeout JSON says of its photo, as far as photoingest reads it.
///
/// `photoTakenTime.timestamp` is a UTC instant in whole seconds, written as a string; `"0"` and
/// `""` mean Google had none. The position is `geoDataExif`, else `geoData`; 0°, 0° is none.
/// `trashed` is written only when true (the photo was in Google Photos' bin).
public struct TakeoutFields: Sendable, Equatable {
    /// Seconds since 1970 (UTC), when the JSON gives a time.
    public var takenSeconds: Int64?
    public var position: GeoPosition?
    public var trashed: Bool
    /// The name the photo was uploaded under, which Takeout may have cut or changed.
    public var title: String?

    public init(takenSeconds: Int64? = nil, position: GeoPosition? = nil, trashed: Bool = false, title: String? = nil) {
        self.takenSeconds = takenSeconds
        self.position = position
        self.trashed = trashed
        self.title = title
    }

    /// The instant the JSON gives, when it gives one a photo can have been taken at (after 1900,
    /// no more than a day after `now`).
    public func takenAt(now: Date, notes: inout [String]) -> Date? {
        guard let seconds = self.takenSeconds else { return nil }
        let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard seconds >= -2_208_988_800, instant <= now.addingTimeInterval(86_400) else {
            notes.append("the Takeout JSON's photoTakenTime \(seconds) refused: not a time a photo was taken")
            return nil
        }
        return instant
    }
}
