/// Where a photo was taken, in degrees (WGS 84): north and east positive.
public struct GeoPosition: Sendable, Equatable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// 0°, 0°: what cameras and phones write when they had no fix, never a place to take as one.
    public var isNoFix: Bool { self.latitude == 0 && self.longitude == 0 }

    public var description: String {
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            let rounded = (abs(value) * 10_000).rounded() / 10_000
            return "\(rounded)°\(value < 0 ? negative : positive)"
        }
        return "\(degrees(self.latitude, "N", "S")) \(degrees(self.longitude, "E", "W"))"
    }
}
