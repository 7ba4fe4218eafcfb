extension GeoPosition {
    /// An ISO 6709 point as videos carry it (Apple's `com.apple.quicktime.location.ISO6709` key,
    /// `©xyz`): a signed latitude, then a signed longitude, each in degrees (`+37.3318-122.0312`),
    /// degrees and minutes (`+3719.908-12201.872`) or degrees, minutes and seconds, told apart by
    /// how many digits come before the point. What follows (an altitude, `/`) is not read. Nil when
    /// the text starts with no such point, or the point lies off the globe.
    public init?(iso6709 text: String) {
        let bytes = Array(text.utf8.prefix(64))
        var index = 0
        /// One signed component whose degrees take `width` digits.
        func component(degreeDigits width: Int) -> Double? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
                return nil
            }
            let sign: Double = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            let whole = Array(bytes[start..<index])
            var fraction: Double = 0
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let digits = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > digits else { return nil }
                fraction = Double("0." + String(decoding: bytes[digits..<index], as: UTF8.self)) ?? 0
            }
            func number(_ slice: ArraySlice<UInt8>) -> Double { Double(String(decoding: slice, as: UTF8.self)) ?? 0 }
            // The fraction belongs to the last part: degrees, minutes or seconds.
            switch whole.count - width {
            case 0:
                return sign * (number(whole[...]) + fraction)
            case 2:
                let minutes = number(whole[width...]) + fraction
                guard minutes < 60 else { return nil }
                return sign * (number(whole[..<width]) + minutes / 60)
            case 4:
                let minutes = number(whole[width..<width + 2])
                let seconds = number(whole[(width + 2)...]) + fraction
                guard minutes < 60, seconds < 60 else { return nil }
                return sign * (number(whole[..<width]) + minutes / 60 + seconds / 3_600)
            default:
                return nil
            }
        }
        guard let latitude = component(degreeDigits: 2), let longitude = component(degreeDigits: 3),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}
