import Foundation
import IngestCore

/// The parse step of the capture time: each EXIF field read and checked on its own.
///
/// Each reading returns what the field says, or nil with a note on why it was refused, so
/// that the resolver (which keeps the policy: which field wins) can say why a photo was dated
/// as it was. A time more than a day after `now` is refused: no camera meant it.
extension ExifTimeFields {
    /// DateTimeOriginal with its SubSecTimeOriginal.
    public func originalTime(now: Date, notes: inout [String]) -> LocalDateTime? {
        Self.wallTime(
            self.dateTimeOriginal, subSec: self.subSecTimeOriginal, tag: "DateTimeOriginal", now: now, notes: &notes)
    }

    /// DateTimeDigitized with its SubSecTimeDigitized.
    public func digitizedTime(now: Date, notes: inout [String]) -> LocalDateTime? {
        Self.wallTime(
            self.dateTimeDigitized, subSec: self.subSecTimeDigitized, tag: "DateTimeDigitized", now: now,
            notes: &notes)
    }

    /// Parses an EXIF `YYYY:MM:DD HH:MM:SS` and its SubSecTime, refusing what no camera meant.
    static func wallTime(
        _ text: String?, subSec: String?, tag: String, now: Date, notes: inout [String]
    ) -> LocalDateTime? {
        guard let raw = text else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        func refuse(_ why: String) -> LocalDateTime? {
            notes.append("\(tag) \"\(trimmed)\" refused: \(why)")
            return nil
        }
        if trimmed.isEmpty || trimmed.allSatisfy({ $0 == ":" || $0 == " " || $0 == "-" }) {
            return refuse("blank")
        }
        guard var wall = Self.dateAndTime(Array(trimmed.utf8)) else { return refuse("not YYYY:MM:DD HH:MM:SS") }
        if wall.year == 0 && wall.month == 0 && wall.day == 0 { return refuse("all zero") }
        guard wall.isValid else { return refuse("no such date or time") }
        guard wall.year >= 1900 else { return refuse("before 1900") }
        guard wall.secondsAsIfUTC <= now.timeIntervalSince1970 + 86_400 else {
            return refuse("more than a day in the future")
        }
        if let subSec = subSec?.trimmingCharacters(in: .whitespaces), !subSec.isEmpty {
            if subSec.utf8.allSatisfy(isDigit) {
                let digits = String(subSec.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
                wall.millisecond = Int(digits) ?? 0
            } else {
                notes.append("SubSec of \(tag) \"\(subSec)\" refused: not digits")
            }
        }
        return wall
    }

    /// The fields of `YYYY:MM:DD HH:MM:SS` (or with `-` between the date's parts, or `T` before
    /// the time), unchecked; nil when the text has not that shape.
    static func dateAndTime(_ bytes: [UInt8]) -> LocalDateTime? {
        guard bytes.count >= 19 else { return nil }
        let digitPositions = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let dateSeparators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-")]
        guard digitPositions.allSatisfy({ isDigit(bytes[$0]) }), dateSeparators.contains(bytes[4]),
            dateSeparators.contains(bytes[7]), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func field(_ start: Int, _ length: Int) -> Int {
            Int(String(decoding: bytes[start..<start + length], as: UTF8.self))!
        }
        return LocalDateTime(
            year: field(0, 4), month: field(5, 2), day: field(8, 2), hour: field(11, 2), minute: field(14, 2),
            second: field(17, 2))
    }

    /// The GPS fix as a UTC instant, when its date, time and status are all valid.
    public func gpsInstant(now: Date, notes: inout [String]) -> Date? {
        guard let dateText = self.gpsDateStamp?.trimmingCharacters(in: .whitespaces), !dateText.isEmpty,
            let stamp = self.gpsTimeStamp
        else { return nil }
        if self.isVoid {
            notes.append("GPS time refused: GPSStatus is void")
            return nil
        }
        guard let parts = Self.values(stamp) else {
            notes.append("GPSTimeStamp refused: not three rationals with non-zero denominators")
            return nil
        }
        let bytes = Array(dateText.utf8)
        guard bytes.count == 10, [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ isDigit(bytes[$0]) }) else {
            notes.append("GPSDateStamp \"\(dateText)\" refused: not YYYY:MM:DD")
            return nil
        }
        let year = Int(String(decoding: bytes[0..<4], as: UTF8.self))!
        let month = Int(String(decoding: bytes[5..<7], as: UTF8.self))!
        let day = Int(String(decoding: bytes[8..<10], as: UTF8.self))!
        let date = LocalDateTime(year: year, month: month, day: day)
        guard date.isValid, year >= 1900, let timeOfDay = Self.secondsOfDay(parts) else {
            notes.append("GPS date and time \"\(dateText)\" refused: out of range")
            return nil
        }
        let instant = date.secondsAsIfUTC + timeOfDay
        guard instant <= now.timeIntervalSince1970 + 86_400 else {
            notes.append("GPS date and time refused: more than a day in the future")
            return nil
        }
        return Date(timeIntervalSince1970: instant)
    }

    /// The GPS fix's time of day, in seconds, when the fix has a time and no date (older GPS
    /// units write no GPSDateStamp) and is not void.
    var gpsTimeOfDayWithoutDate: Double? {
        guard self.gpsDateStamp?.trimmingCharacters(in: .whitespaces).isEmpty ?? true, !self.isVoid else {
            return nil
        }
        return self.gpsTimeStamp.flatMap(Self.values).flatMap(Self.secondsOfDay)
    }

    /// The GPS position, when both coordinates and their hemispheres are written and plausible.
    /// 0°, 0° is refused: cameras write it for "no fix".
    public func gpsPosition(notes: inout [String]) -> GeoPosition? {
        guard let latitude = self.gpsLatitude, let longitude = self.gpsLongitude else { return nil }
        if self.isVoid {
            notes.append("GPS position refused: GPSStatus is void")
            return nil
        }
        func degrees(_ parts: [ExifRational]) -> Double? {
            guard let values = Self.values(parts), values[1] < 60, values[2] < 60 else { return nil }
            return values[0] + values[1] / 60 + values[2] / 3_600
        }
        func hemisphere(_ text: String?, _ positive: String, _ negative: String) -> Double? {
            switch text?.trimmingCharacters(in: .whitespaces).uppercased() {
            case positive: 1
            case negative: -1
            default: nil
            }
        }
        guard let north = degrees(latitude), let east = degrees(longitude), north <= 90, east <= 180 else {
            notes.append("GPS position refused: not three rationals of degrees, minutes and seconds")
            return nil
        }
        guard let latitudeSign = hemisphere(self.gpsLatitudeRef, "N", "S"),
            let longitudeSign = hemisphere(self.gpsLongitudeRef, "E", "W")
        else {
            notes.append("GPS position refused: GPSLatitudeRef or GPSLongitudeRef is not N/S and E/W")
            return nil
        }
        let position = GeoPosition(latitude: latitudeSign * north, longitude: longitudeSign * east)
        guard !position.isNoFix else {
            notes.append("GPS position 0°, 0° refused: written for no fix")
            return nil
        }
        return position
    }

    /// Whether GPSStatus says the receiver had no fix (`V`, void): its time and position are not
    /// measurements.
    var isVoid: Bool {
        self.gpsStatus?.trimmingCharacters(in: .whitespaces).uppercased() == "V"
    }

    /// Three rationals (degrees, minutes, seconds; or hours, minutes, seconds) as numbers, or nil
    /// when there are not three or a denominator is zero.
    static func values(_ rationals: [ExifRational]) -> [Double]? {
        guard rationals.count == 3, rationals.allSatisfy({ $0.denominator != 0 }) else { return nil }
        return rationals.map { Double($0.numerator) / Double($0.denominator) }
    }

    /// Hours, minutes and seconds as seconds into the day, or nil out of range (a leap second kept).
    static func secondsOfDay(_ parts: [Double]) -> Double? {
        guard parts[0] < 24, parts[1] < 60, parts[2] < 61 else { return nil }
        return parts[0] * 3_600 + parts[1] * 60 + parts[2]
    }
}
