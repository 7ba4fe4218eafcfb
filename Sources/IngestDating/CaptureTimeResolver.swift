import Foundation
import IngestCore

/// Turns the raw EXIF time fields of one file into a UTC ``CaptureTime``.
///
/// The rules, first that holds wins, and each is recorded in ``CaptureTime/source``:
/// 1. the wall time with OffsetTimeOriginal (or OffsetTimeDigitized for DateTimeDigitized);
/// 2. the wall time with the offset its GPS time stamp implies, when the zone at its GPS position
///    had that offset then too;
/// 3. the wall time in the zone at its GPS position (DST-correct), when there is no GPS time;
/// 4. the wall time with the offset its GPS time stamp implies, with no position or one whose
///    zone disagrees. A fresh fix is the better witness: the camera's clock was on another zone's
///    time. A stale one is refused by its residual before it gets here;
/// 5. the wall time in the assumed zone (DST-correct; a fold takes the earlier instant);
/// 6. with no usable wall time: the GPS date and time (UTC), else the file's name
///    (``named(_:path:fileModified:)``), else its mtime.
///
/// An XMP sidecar's time, where there is one, wins over all of these
/// (``sidecar(_:over:exif:)``): it is the person's correction. The order of every source, the
/// file's own fields, its sidecar, its export and its name, is ``precedence``.
///
/// OffsetTime (without Original) is never used: it belongs to ModifyDate and editors rewrite it.
public struct CaptureTimeResolver: Sendable {
    /// The zone for wall times that carry no offset.
    public var assumedZone: TimeZone
    /// The present, against which "more than a day in the future" is judged.
    public var now: Date
    /// The zone boundaries that date a photo by its GPS position; nil leaves positions unused.
    public var zones: (any ZoneMap)?
    /// Whether a file with no date of its own is dated by its name (``FileNameDate``).
    public var readsNames = true

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

    /// The capture time of a photo's EXIF fields. `clockOffset` gives the seconds to add to the
    /// camera's wall clock (``ClockOffset``), asked with the clock as written; the corrected
    /// clock is what the rules read. `position`, when given (an XMP sidecar's), stands for the
    /// EXIF's GPS position.
    public func resolve(
        _ fields: ExifTimeFields?, fileModified: Date, position: GeoPosition? = nil,
        clockOffset: (LocalDateTime) -> Int? = { _ in nil }
    ) -> CaptureTime {
        var notes: [String] = []
        let fields = fields ?? ExifTimeFields()
        let gps = fields.gpsInstant(now: self.now, notes: &notes)
        func read(_ wall: LocalDateTime, _ offset: String?, _ tag: String) -> CaptureTime {
            guard let seconds = clockOffset(wall) else {
                return self.resolve(wall, offset: offset, tag, fields, gps, notes, position: position)
            }
            var capture = self.resolve(
                wall.adding(seconds: seconds), offset: offset, tag, fields, gps, notes, position: position)
            capture.clockOffset = seconds
            return capture
        }
        if let wall = fields.originalTime(now: self.now, notes: &notes) {
            return read(wall, fields.offsetTimeOriginal, "OffsetTimeOriginal")
        }
        if let wall = fields.digitizedTime(now: self.now, notes: &notes) {
            return read(wall, fields.offsetTimeDigitized, "OffsetTimeDigitized")
        }
        if let gps {
            return CaptureTime(instant: gps, offsetSeconds: 0, source: .gpsUTC, notes: notes)
        }
        return CaptureTime(instant: fileModified, source: .fileMTime, notes: notes)
    }

    /// Rules 1-5 for a usable wall time: its own offset (`offsetText`, from the tag
    /// `offsetTag`), else what the GPS fix and position (`given`, else the EXIF's) say, else the
    /// assumed zone.
    func resolve(
        _ wall: LocalDateTime, offset offsetText: String?, _ offsetTag: String, _ fields: ExifTimeFields,
        _ gps: Date?, _ notes: [String], position given: GeoPosition? = nil
    ) -> CaptureTime {
        var notes = notes
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
            given ?? (self.zones == nil ? fields.gpsPosition(notes: &unread) : fields.gpsPosition(notes: &notes))
        let local = position.flatMap { self.zone(at: $0, wall: wall, notes: &notes) }
        let fixOffset =
            gps.flatMap { self.offsetFromGPS(wall: wall, gps: $0, notes: &notes) }
            ?? local.flatMap { self.offsetFromTimeOfDay(fields, wall: wall, near: $0.offset, notes: &notes) }
        if let (offset, source, zone) = Self.choose(fix: fixOffset, local: local, wall: wall, notes: &notes) {
            return CaptureTime(
                instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset, source: source,
                zone: zone, notes: notes)
        }
        let (offset, flag) = Self.offset(of: wall, in: self.assumedZone)
        if let flag { notes.append(flag) }
        return CaptureTime(
            instant: wall.instant(offsetSeconds: offset), localTime: wall, offsetSeconds: offset,
            source: .exifAssumedZone, assumedZone: self.assumedZone.name,
            positionUnused: position != nil && local == nil,
            notes: notes)
    }

    /// Rules 2-4: the offset the GPS fix implies and the zone at the position, weighed against
    /// each other; nil when neither says anything.
    static func choose(
        fix: Int?, local: (name: String, zone: TimeZone, offset: Int, flag: String?)?, wall: LocalDateTime,
        notes: inout [String]
    ) -> (offset: Int, source: CaptureSource, zone: String?)? {
        switch (fix, local) {
        // In a DST fold the zone has two offsets at that wall time: the fix agrees with either.
        case (let fix?, let local?)
        where fix == local.offset || local.zone.secondsFromGMT(for: wall.instant(offsetSeconds: fix)) == fix:
            return (fix, .exifGPSAgreed, local.name)
        case (let fix?, let local?):
            notes.append(
                "GPS time and position disagree: the fix puts the clock at \(UTCOffset.format(fix)), "
                    + "but \(local.name) was at \(UTCOffset.format(local.offset)) then; the fix won "
                    + "(the camera's clock was on another zone's time: its home zone, or a DST change it missed)")
            return (fix, .exifGPSOffset, nil)
        case (nil, let local?):
            if let flag = local.flag { notes.append(flag) }
            return (local.offset, .exifGPSPosition, local.name)
        case (let fix?, nil):
            return (fix, .exifGPSOffset, nil)
        case (nil, nil):
            return nil
        }
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
    /// GPSDateStamp), used only beside a position. The fix's day is unknown, so of the differences
    /// a day apart, the one nearest the zone's offset is taken.
    func offsetFromTimeOfDay(
        _ fields: ExifTimeFields, wall: LocalDateTime, near expected: Int, notes: inout [String]
    ) -> Int? {
        guard let fix = fields.gpsTimeOfDayWithoutDate else { return nil }
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
