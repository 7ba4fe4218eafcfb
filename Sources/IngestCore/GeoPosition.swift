/// Where a photo was taken, in degrees (WGS 84): north and east positive.
public struct GeoPosition: Sendable, Equatable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String {
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            let rounded = (abs(value) * 10_000).rounded() / 10_000
            return "\(rounded)°\(value < 0 ? negative : positive)"
        }
        return "\(degrees(self.latitude, "N", "S")) \(degrees(self.longitude, "E", "W"))"
    }
}
