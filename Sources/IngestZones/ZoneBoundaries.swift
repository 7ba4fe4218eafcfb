import Foundation
import GRDB
import IngestCore
import IngestDating

/// The world's time-zone boundaries (timezone-boundary-builder, OpenStreetMap data, ODbL), read
/// from the SQLite file `scripts/zone-data` makes: an R*Tree of the polygons' boxes, and each
/// polygon's edges cut into latitude bands.
///
/// A lookup reads the boxes that hold the point and, of each, the one band at the point's
/// latitude: a few hundred edges, never a whole ring. Nothing is loaded whole at start.
public final class ZoneBoundaries: ZoneMap {
    /// The file's data version (timezone-boundary-builder's release, e.g. `2026c`).
    public let dataVersion: String
    /// Where the data came from and its licence, in words.
    public let source: String
    /// The file read.
    public let path: String
    let queue: DatabaseQueue
    let zoneNames: [String]
    let bandHeight: Int64

    /// The file's format this reader knows.
    static let format = "1"

    /// Opens the file read-only and checks its format.
    /// - Throws: ``IngestError`` when the file cannot be opened or is not a zone file of this format.
    public init(path: String) throws(IngestError) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "zones"
        // The file is replaced whole (renamed over), never written in place: mapping it is safe,
        // and a lookup then costs no read() of its pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 134217728") }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let meta = try queue.read { db in
                try Dictionary(
                    Row.fetchAll(db, sql: "SELECT key, value FROM meta").map { ($0[0] as String, $0[1] as String) }
                ) { first, _ in first }
            }
            guard meta["format"] == Self.format, let height = meta["band_height"].flatMap(Int64.init), height > 0 else {
                throw IngestError(
                    .invalidConfiguration,
                    "\(path) is a zone file of format \(meta["format"] ?? "unknown"), not \(Self.format): "
                        + "make it again with scripts/zone-data --force")
            }
            let names = try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM zone ORDER BY id") }
            self.queue = queue
            self.zoneNames = names
            self.bandHeight = height
            self.dataVersion = meta["data_version"] ?? "unknown"
            self.source = [meta["source"], meta["licence"]].compactMap { $0 }.joined(separator: "; ")
            self.path = path
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(.invalidConfiguration, "\(path) is not a zone file", because: error)
        }
    }

    /// Where a zone file is looked for, in order: `$XDG_DATA_HOME/photoingest/zones.sqlite` (where
    /// `scripts/zone-data` writes it), then `share/photoingest/zones.sqlite` beside the executable's
    /// folder (where the .deb puts it). The executable is the running one (`/proc/self/exe`): a
    /// command found through PATH has no folder in its argv[0].
    public static func standardPaths(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
    ) -> [String] {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".local/share")
        let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return [
            (dataHome as NSString).appendingPathComponent("photoingest/zones.sqlite"),
            binary.deletingLastPathComponent().appendingPathComponent("share/photoingest/zones.sqlite").path,
        ]
    }

    public func zoneName(at position: GeoPosition) throws(IngestError) -> String? {
        guard position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) <= 90,
            abs(position.longitude) <= 180
        else { return nil }
        // Truncated toward zero, as timezonefinder converts a query: the check points that
        // `scripts/zone-data` keeps are then the very points it tested.
        let x = Int64(position.longitude * 1e7)
        let y = Int64(position.latitude * 1e7)
        let band = y >= 0 ? y / self.bandHeight : -((-y + self.bandHeight - 1) / self.bandHeight)
        // No transaction around the lookup: nothing writes the file, and a BEGIN and COMMIT each
        // time cost more than the lookup.
        let found: Int?
        do {
            found = try self.queue.inDatabase { db -> Int? in
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT p.zone, e.runs FROM polygon_box b
                        JOIN polygon p ON p.id = b.id
                        JOIN band e ON e.polygon = b.id AND e.band = ?
                        WHERE b.min_x <= ? AND b.max_x >= ? AND b.min_y <= ? AND b.max_y >= ?
                        ORDER BY b.id
                        """)
                let rows = try Row.fetchCursor(statement, arguments: [band, x, x, y, y])
                while let row = try rows.next() {
                    // Read in place: the blob stays valid while the row is current.
                    let holds = try row.withUnsafeData(atIndex: 1) { data in
                        (data ?? Data()).withUnsafeBytes { ZoneBand(bytes: $0).holds(x: x, y: y) }
                    }
                    switch holds {
                    case true?: return row[0]
                    case false?: continue
                    case nil:
                        throw IngestError(.invalidConfiguration, "\(self.path) is damaged: a band does not decode")
                    }
                }
                return nil
            }
        } catch let error as IngestError {
            throw error
        } catch {
            throw IngestError(.invalidConfiguration, "\(self.path) could not be read", because: error)
        }
        guard let zone = found else { return Self.nauticalZone(longitude: position.longitude) }
        guard self.zoneNames.indices.contains(zone) else {
            throw IngestError(.invalidConfiguration, "\(self.path) is damaged: zone \(zone) has no name")
        }
        return self.zoneNames[zone]
    }

    /// The nautical zone of a longitude, for a point no polygon holds: 15° wide, centred on
    /// multiples of 15°, named with POSIX's inverted sign (`Etc/GMT-9` is nine hours east).
    static func nauticalZone(longitude: Double) -> String {
        let hours = Int((longitude / 15).rounded())
        return hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
    }
}
