import Foundation
import GRDB
import IngestCore
import IngestTesting
import IngestZones
import Testing

/// The zone file `scripts/zone-data` makes, read through photoingest's reader.
@Suite struct ZoneBoundariesTests {
    static let boundaries: Result<ZoneBoundaries, Error> = Result {
        // Where scripts/zone-data (run by scripts/setup) writes it for this user.
        let path = ZoneBoundaries.standardPaths()[0]
        guard FileManager.default.fileExists(atPath: path) else {
            throw FixtureError("no zone file at \(path): scripts/setup (or scripts/zone-data) makes it")
        }
        return try ZoneBoundaries(path: path)
    }

    @Test(
        "Cities and seas: the zone each lies in",
        arguments: [
            (27.7172, 85.3240, "Asia/Kathmandu"),
            (-34.9285, 138.6007, "Australia/Adelaide"),
            (64.1466, -21.9426, "Atlantic/Reykjavik"),
            (-36.8485, 174.7633, "Pacific/Auckland"),
            (40.7128, -74.0060, "America/New_York"),
            (51.5072, -0.1276, "Europe/London"),
            (41.9029, 12.4534, "Europe/Vatican"),
            // Either side of the Spanish-Portuguese border on the Guadiana: Badajoz and Elvas.
            (38.8786, -6.9703, "Europe/Madrid"),
            (38.8814, -7.1628, "Europe/Lisbon"),
            // At sea: the North Atlantic at 40° W is three hours behind, the Pacific at 170° W eleven, the Indian
            // Ocean at 90° E six ahead.
            (30.0, -40.0, "Etc/GMT+3"),
            (-10.0, -170.5, "Etc/GMT+11"),
            (-10.0, 90.0, "Etc/GMT-6"),
        ])
    func namedPlaces(latitude: Double, longitude: Double, zone: String) throws {
        let boundaries = try Self.boundaries.get()
        #expect(try boundaries.zoneName(at: GeoPosition(latitude: latitude, longitude: longitude)) == zone)
    }

    @Test("Points a metre either side of border vertices answer as timezonefinder does")
    func bordersAgreeWithTimezonefinder() throws {
        let boundaries = try Self.boundaries.get()
        var configuration = Configuration()
        configuration.readonly = true
        let rows = try DatabaseQueue(path: boundaries.path, configuration: configuration).read { db in
            try Row.fetchAll(db, sql: "SELECT latitude, longitude, zone FROM check_point")
        }
        try #require(rows.count > 1_000, "the zone file keeps too few check points")
        var wrong: [String] = []
        for row in rows {
            let position = GeoPosition(latitude: row[0], longitude: row[1])
            let ours = try boundaries.zoneName(at: position)
            if ours != row[2] { wrong.append("\(position): \(ours ?? "nil"), timezonefinder \(row[2] as String)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(rows.count):\n\(wrong.prefix(20).joined(separator: "\n"))")
        #expect(Set(rows.map { $0[2] as String }).count > 200, "the check points cover too few zones")
    }

    @Test("A position off the map or not a number has no zone")
    func outOfRange() throws {
        let boundaries = try Self.boundaries.get()
        #expect(try boundaries.zoneName(at: GeoPosition(latitude: 91, longitude: 0)) == nil)
        #expect(try boundaries.zoneName(at: GeoPosition(latitude: 0, longitude: -180.5)) == nil)
        #expect(try boundaries.zoneName(at: GeoPosition(latitude: .nan, longitude: 10)) == nil)
        #expect(boundaries.dataVersion.count >= 5, "data version: \(boundaries.dataVersion)")
        #expect(boundaries.source.contains("ODbL"))
    }

    @Test("A file that is no zone file is refused with its path")
    func notAZoneFile() throws {
        let folder = TemporaryFolder("zones")
        let other = folder.appending("other.sqlite")
        try DatabaseQueue(path: other.path).write { db in
            try db.execute(sql: "CREATE TABLE meta (key TEXT, value TEXT); INSERT INTO meta VALUES ('format', '9')")
        }
        let error = #expect(throws: IngestError.self) { try ZoneBoundaries(path: other.path) }
        #expect(error?.message.contains(other.path) == true && error?.message.contains("format 9") == true)
        let text = folder.appending("text.sqlite")
        try Data("not a database".utf8).write(to: text)
        #expect(throws: IngestError.self) { try ZoneBoundaries(path: text.path) }
    }

    @Test("The standard places: the user's data folder, then share/ beside the executable's folder")
    func standardPaths() {
        let paths = ZoneBoundaries.standardPaths(
            environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"], executable: "/opt/pi/bin/photoingest")
        #expect(paths == ["/data/photoingest/zones.sqlite", "/opt/pi/share/photoingest/zones.sqlite"])
        let home = ZoneBoundaries.standardPaths(environment: ["HOME": "/home/u"], executable: "/usr/bin/photoingest")
        #expect(home == ["/home/u/.local/share/photoingest/zones.sqlite", "/usr/share/photoingest/zones.sqlite"])
    }
}
