import Foundation

/// Turns the raw EXIF time fields of one file into a UTC ``CaptureTime``.
///
/// The rules, first that holds wins, and each is recorded in ``CaptureTime/source``:
/// 1. the wall time with OffsetTimeOriginal (or OffsetTimeDigitized for DateTimeDigitized);
/// 2. the wall time with the offset its GPS time stamp implies, when the zone at its GPS position
///    had that offset then too;
/// 3. the wall time in the zone at its GPS position (DST-correct), when there is no GPS time;
/// 4. the wall time with the offset its GPS time stamp implies: no position, or a position whose
///    zone disagrees (a fresh fix is the better witness: the camera's clock was on another zone's
///    time; a stale one is refused by its residual before it gets here);
/// 5. the wall time in the assumed zone (DST-correct; a fold takes the earlier instant);
/// 6. with no usable wall time: the GPS date and time (UTC), else the file's mtime.
///
/// OffsetTime (without Original) is never used: it belongs to ModifyDate and editors rewrite it.
public struct CaptureTimeResolver: Sendable {
    /// The zone for wall times that carry no offset.
    public var assumedZone: TimeZone
    /// The present, against which "more than a day in the future" is judged.
    public var now: Date
    /// The zone boundaries that date a photo by its GPS position; nil leaves positions unused.
    public var zones: (any ZoneMap)?

    /// Local clock minus GPS time beyond this is a stale fix, not a zone.
    static let maximumOffset = 14 * 3_600
    /// Zones are whole multiples of 15 minutes; a camera clock and the GPS fix taken with the same
    /// shot differ by seconds. A larger residual means the fix is stale and the rounded offset a guess.
    static let gpsResidualTolerance = 5.0 * 60

    public init(assumedZone: TimeZone, now: Date = Date(), zones: (any ZoneMap)? = nil) {
        self.assumedZone = assumedZone
        self.now = now
        self.zones = zones
    }

    public func resolve(_ fields: ExifTimeFields?, fileModified: Date) -> CaptureTime {
        var notes: [String] = []
        let fields = fields ?? ExifTimeFields()
        let gps = self.gpsInstant(fields, notes: &notes)

        let original = self.wallTime(
            fields.dateTimeOriginal, subSec: fields.subSecTimeOriginal, tag: "DateTimeOriginal", notes: &notes)
        let digitized =
            original == nil
            ? self.wallTime(
                fields.dateTimeDigitized, subSec: fields.subSecTimeDigitized, tag: "DateTimeDigitized",
                notes: &notes) : nil

        if let (wall, offsetText, offsetTag) = original.map({ ($0, fields.offsetTimeOriginal, "OffsetTimeOriginal") })
            ?? digitized.map({ ($0, fields.offsetTimeDigitized, "OffsetTimeDigitized") })
        {
            if let text = offsetText?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
                if let offset = UTCOffset.parse(text) {
                    return CaptureTime(
                        instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
                        source: .exifOffset, notes: notes)
                }
                notes.append("\(offsetTag) \"\(text)\" refused: not a ±HH:MM offset within ±14:00")
            }
            // Without zone boundaries a position says nothing, and its refusals are not worth a
            // note; that it was there is kept, so that a run with them dates the file again.
            var unread: [String] = []
            let position =
                self.zones == nil ? self.gpsPosition(fields, notes: &unread) : self.gpsPosition(fields, notes: &notes)
            let local = position.flatMap { self.zone(at: $0, wall: wall, notes: &notes) }
            let positionUnused = position != nil && local == nil
            let fixOffset =
                gps.flatMap { self.offsetFromGPS(wall: wall, gps: $0, notes: &notes) }
                ?? local.flatMap { self.offsetFromTimeOfDay(fields, wall: wall, near: $0.offset, notes: &notes) }
            func dated(_ offset: Int, _ source: CaptureSource, zone: String? = nil) -> CaptureTime {
                CaptureTime(
                    instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
                    source: source, zone: zone, notes: notes)
            }
            switch (fixOffset, local) {
            // In a DST fold the zone has two offsets at that wall time: the fix agrees with either.
            case (let fix?, let local?)
            where fix == local.offset || local.zone.secondsFromGMT(for: wall.instant(offsetSeconds: fix)) == fix:
                return dated(fix, .exifGPSAgreed, zone: local.name)
            case (let fix?, let local?):
                notes.append(
                    "GPS time and position disagree: the fix puts the clock at \(UTCOffset.format(fix)), "
                        + "but \(local.name) was at \(UTCOffset.format(local.offset)) then; the fix won "
                        + "(the camera's clock was on another zone's time: its home zone, or a DST change it missed)")
                return dated(fix, .exifGPSOffset)
            case (nil, let local?):
                if let flag = local.flag { notes.append(flag) }
                return dated(local.offset, .exifGPSPosition, zone: local.name)
            case (let fix?, nil):
                return dated(fix, .exifGPSOffset)
            case (nil, nil):
                break
            }
            let (offset, flag) = Self.offset(of: wall, in: self.assumedZone)
            if let flag { notes.append(flag) }
            return CaptureTime(
                instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
                source: .exifAssumedZone, assumedZone: self.assumedZone.name, positionUnused: positionUnused,
                notes: notes)
        }
        if let gps {
            return CaptureTime(instant: gps, offsetSeconds: 0, source: .gpsUTC, notes: notes)
        }
        return CaptureTime(instant: fileModified, source: .fileMTime, notes: notes)
    }

    /// Parses an EXIF `YYYY:MM:DD HH:MM:SS` and its SubSecTime, refusing what no camera meant.
    func wallTime(_ text: String?, subSec: String?, tag: String, notes: inout [String]) -> LocalDateTime? {
        guard let raw = text else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        func refuse(_ why: String) -> LocalDateTime? {
            notes.append("\(tag) \"\(trimmed)\" refused: \(why)")
            return nil
        }
        if trimmed.isEmpty || trimmed.allSatisfy({ $0 == ":" || $0 == " " || $0 == "-" }) {
            return refuse("blank")
        }
        let bytes = Array(trimmed.utf8)
        guard bytes.count >= 19 else { return refuse("not YYYY:MM:DD HH:MM:SS") }
        let digitPositions = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let dateSeparators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-")]
        guard digitPositions.allSatisfy({ isDigit(bytes[$0]) }), dateSeparators.contains(bytes[4]),
            dateSeparators.contains(bytes[7]), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return refuse("not YYYY:MM:DD HH:MM:SS") }
        func field(_ start: Int, _ length: Int) -> Int {
            Int(String(decoding: bytes[start..<start + length], as: UTF8.self))!
        }
        var wall = LocalDateTime(
            year: field(0, 4), month: field(5, 2), day: field(8, 2), hour: field(11, 2), minute: field(14, 2),
            second: field(17, 2))
        if wall.year == 0 && wall.month == 0 && wall.day == 0 { return refuse("all zero") }
        guard wall.isValid else { return refuse("no such date or time") }
        guard wall.year >= 1900 else { return refuse("before 1900") }
        guard wall.secondsAsIfUTC <= self.now.timeIntervalSince1970 + 86_400 else {
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

    /// The GPS fix as a UTC instant, when its date, time and status are all valid.
    func gpsInstant(_ fields: ExifTimeFields, notes: inout [String]) -> Date? {
        guard let dateText = fields.gpsDateStamp?.trimmingCharacters(in: .whitespaces), !dateText.isEmpty,
            let stamp = fields.gpsTimeStamp
        else { return nil }
        if Self.isVoid(fields) {
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
        guard instant <= self.now.timeIntervalSince1970 + 86_400 else {
            notes.append("GPS date and time refused: more than a day in the future")
            return nil
        }
        return Date(timeIntervalSince1970: instant)
    }

    /// The GPS position, when both coordinates and their hemispheres are written and plausible.
    /// 0°, 0° is refused: cameras write it for "no fix".
    public func gpsPosition(_ fields: ExifTimeFields, notes: inout [String]) -> GeoPosition? {
        guard let latitude = fields.gpsLatitude, let longitude = fields.gpsLongitude else { return nil }
        if Self.isVoid(fields) {
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
        guard let latitudeSign = hemisphere(fields.gpsLatitudeRef, "N", "S"),
            let longitudeSign = hemisphere(fields.gpsLongitudeRef, "E", "W")
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

    /// The zone at `position` and its offset at the wall time, with a DST note when the wall time
    /// falls in a fold or a gap there.
    func zone(
        at position: GeoPosition, wall: LocalDateTime, notes: inout [String]
    ) -> (name: String, zone: TimeZone, offset: Int, flag: String?)? {
        guard let (name, zone) = self.zone(at: position, notes: &notes) else { return nil }
        let (offset, flag) = Self.offset(of: wall, in: zone)
        return (name, zone, offset, flag)
    }

    /// The zone at `position`, by its name; nil, with a note when something failed, when there is
    /// no zone file or no zone there.
    func zone(at position: GeoPosition, notes: inout [String]) -> (name: String, zone: TimeZone)? {
        guard let zones = self.zones else { return nil }
        let found: String?
        do {
            found = try zones.zoneName(at: position)
        } catch {
            notes.append("The zone at \(position) could not be read: \(error.message)")
            return nil
        }
        guard let name = found else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            notes.append("The zone at \(position), \(name), is not in this system's time-zone database")
            return nil
        }
        return (name, zone)
    }

    /// The offset a GPS fix with a time of day and no date implies (older GPS units write no
    /// GPSDateStamp), used only beside a position: the fix's day is unknown, so of the differences
    /// a day apart the one nearest the zone's offset is taken.
    func offsetFromTimeOfDay(
        _ fields: ExifTimeFields, wall: LocalDateTime, near expected: Int, notes: inout [String]
    ) -> Int? {
        guard fields.gpsDateStamp?.trimmingCharacters(in: .whitespaces).isEmpty ?? true, !Self.isVoid(fields),
            let fix = fields.gpsTimeStamp.flatMap(Self.values).flatMap(Self.secondsOfDay)
        else { return nil }
        let clock = Double(wall.hour * 3_600 + wall.minute * 60 + wall.second) + Double(wall.millisecond) / 1_000
        // Of the differences a day apart, those a zone can have (±14 h), the nearest the zone's.
        let candidates = [clock - fix - 86_400, clock - fix, clock - fix + 86_400].filter {
            abs($0) <= Double(Self.maximumOffset) + Self.gpsResidualTolerance
        }
        guard let difference = candidates.min(by: { abs($0 - Double(expected)) < abs($1 - Double(expected)) }) else {
            return nil
        }
        return self.offsetFromGPS(
            wall: wall, gps: Date(timeIntervalSince1970: wall.secondsAsIfUTC - difference), notes: &notes)
    }

    /// Whether GPSStatus says the receiver had no fix (`V`, void): its time and position are not
    /// measurements.
    static func isVoid(_ fields: ExifTimeFields) -> Bool {
        fields.gpsStatus?.trimmingCharacters(in: .whitespaces).uppercased() == "V"
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

    /// The zone implied by the camera clock against its GPS fix, when the two agree well enough.
    func offsetFromGPS(wall: LocalDateTime, gps: Date, notes: inout [String]) -> Int? {
        let difference = wall.secondsAsIfUTC - gps.timeIntervalSince1970
        let quarterHours = (difference / 900).rounded()
        let offset = Int(quarterHours) * 900
        guard abs(offset) <= Self.maximumOffset else {
            notes.append("GPS offset refused: clock and GPS differ by more than 14 h")
            return nil
        }
        guard abs(difference - Double(offset)) <= Self.gpsResidualTolerance, Self.isInUse(offset) else {
            notes.append("GPS offset refused: clock and GPS differ by \(Int(difference)) s, not a zone's offset")
            return nil
        }
        return offset
    }

    /// Offsets some zone uses: whole and half hours, and the few at a quarter hour (Nepal, Eucla,
    /// Chatham). A GPS difference that rounds to any other quarter hour is a stale fix.
    static func isInUse(_ offset: Int) -> Bool {
        let minutes = abs(offset) / 60 % 60
        if minutes == 0 || minutes == 30 { return true }
        return [5 * 3_600 + 45 * 60, 8 * 3_600 + 45 * 60, 12 * 3_600 + 45 * 60, 13 * 3_600 + 45 * 60].contains(offset)
    }

    /// The offset of a wall time in a zone, handling DST: in a fold (the hour that happens twice)
    /// the earlier instant; in a gap (the hour that never happens) the offset before the jump.
    public static func offset(of wall: LocalDateTime, in zone: TimeZone) -> (seconds: Int, flag: String?) {
        let asIfUTC = wall.secondsAsIfUTC
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asIfUTC - 86_400))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asIfUTC + 86_400))
        let consistent = Set([before, after]).filter {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: asIfUTC - Double($0))) == $0
        }
        switch consistent.count {
        case 2:
            let earlier = consistent.max()!
            return (
                earlier,
                "\(wall) happens twice in \(zone.name) (DST fold); the earlier instant was taken"
            )
        case 1:
            return (consistent.first!, nil)
        default:
            return (before, "\(wall) does not exist in \(zone.name) (DST gap); read with the offset before it")
        }
    }
}
