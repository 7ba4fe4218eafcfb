import Foundation
import IngestCore

/// The parse step of a sidecar's values, each read and checked on its own, as the EXIF's are
/// (``ExifTimeFields``): what a value says, or nil with a note on why it was refused.
extension XMPFields {
    /// A capture time read from a sidecar: the wall time, the offset when the sidecar wrote one,
    /// and the property it came from.
    public struct Reading: Sendable, Equatable {
        public var wall: LocalDateTime
        /// Seconds east of UTC; nil for a time written without one (the zone rules then apply).
        public var offsetSeconds: Int?
        public var property: String
    }

    /// `exif:DateTimeOriginal`, else `photoshop:DateCreated`, when one is a usable date and time.
    public func captureTime(now: Date, notes: inout [String]) -> Reading? {
        let candidates = [
            (self.dateTimeOriginal, "exif:DateTimeOriginal"), (self.dateCreated, "photoshop:DateCreated"),
        ]
        for case (let text?, let property) in candidates {
            if let reading = Self.date(text, property: property, now: now, notes: &notes) { return reading }
        }
        return nil
    }

    /// Parses an XMP date (`YYYY-MM-DDThh:mm[:ss[.s…]][Z|±hh:mm]`, ISO 8601 as the XMP
    /// specification has it), or EXIF's `YYYY:MM:DD hh:mm:ss[.s…]`, which darktable writes.
    /// A day without a time is refused: it cannot place a photo in a window.
    static func date(_ text: String, property: String, now: Date, notes: inout [String]) -> Reading? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        func refuse(_ why: String) -> Reading? {
            notes.append("XMP \(property) \"\(trimmed.prefix(40))\" refused: \(why)")
            return nil
        }
        let bytes = Array(trimmed.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy(isDigit) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        func byte(_ index: Int, in set: String) -> Bool { index < bytes.count && set.utf8.contains(bytes[index]) }
        guard let year = digits(0..<4), byte(4, in: "-:"), let month = digits(5..<7), byte(7, in: "-:"),
            let day = digits(8..<10)
        else { return refuse("not a date and time") }
        guard bytes.count > 10 else { return refuse("a day without a time") }
        guard byte(10, in: "T "), let hour = digits(11..<13), byte(13, in: ":"), let minute = digits(14..<16) else {
            return refuse("not a date and time")
        }
        var wall = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)
        var index = 16
        if byte(index, in: ":") {
            guard let second = digits(index + 1..<index + 3) else { return refuse("not a date and time") }
            wall.second = second
            index += 3
        }
        if byte(index, in: ".,") {
            let start = index + 1
            index = start
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return refuse("not a date and time") }
            let fraction = String(decoding: bytes[start..<min(index, start + 3)], as: UTF8.self)
            wall.millisecond = Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
        }
        let zone = String(decoding: bytes[index...], as: UTF8.self)
        let offset: Int?
        switch zone {
        case "": offset = nil
        case "Z", "z": offset = 0
        default:
            guard let parsed = UTCOffset.parse(zone) else {
                return refuse("its offset is not Z or ±HH:MM within ±14:00")
            }
            offset = parsed
        }
        guard wall.isValid else { return refuse("no such date or time") }
        guard wall.year >= 1900 else { return refuse("before 1900") }
        guard wall.secondsAsIfUTC - Double(offset ?? 0) <= now.timeIntervalSince1970 + 86_400 else {
            return refuse("more than a day in the future")
        }
        return Reading(wall: wall, offsetSeconds: offset, property: property)
    }

    /// The position, when both coordinates are written and plausible; 0°, 0° is refused, as the
    /// EXIF's is (written for "no fix").
    public func gpsPosition(notes: inout [String]) -> GeoPosition? {
        guard let latitudeText = self.gpsLatitude, let longitudeText = self.gpsLongitude else { return nil }
        guard let latitude = Self.coordinate(latitudeText, positive: "N", negative: "S", limit: 90),
            let longitude = Self.coordinate(longitudeText, positive: "E", negative: "W", limit: 180)
        else {
            notes.append(
                "XMP GPS position \"\(latitudeText.prefix(24))\", \"\(longitudeText.prefix(24))\" refused: "
                    + "not DDD,MM,SSk or DDD,MM.mmk")
            return nil
        }
        let position = GeoPosition(latitude: latitude, longitude: longitude)
        guard !position.isNoFix else {
            notes.append("XMP GPS position 0°, 0° refused: written for no fix")
            return nil
        }
        return position
    }

    /// An XMP GPS coordinate: degrees, then minutes (with a fraction, or whole with seconds), then
    /// the hemisphere's letter; signed by it. Nil out of range or of another shape.
    static func coordinate(_ text: String, positive: Character, negative: Character, limit: Double) -> Double? {
        var body = text.trimmingCharacters(in: .whitespaces)
        guard let hemisphere = body.popLast().map({ Character($0.uppercased()) }),
            hemisphere == positive || hemisphere == negative
        else { return nil }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ part in
                !part.isEmpty && part.utf8.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") }
                    && part.utf8.count(where: { $0 == UInt8(ascii: ".") }) <= 1
            })
        else { return nil }
        let values = parts.compactMap { Double($0) }
        guard values.count == parts.count, values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let degrees = values.enumerated().reduce(0.0) { sum, part in sum + part.element / pow(60, Double(part.offset)) }
        guard degrees <= limit else { return nil }
        return hemisphere == positive ? degrees : -degrees
    }
}
