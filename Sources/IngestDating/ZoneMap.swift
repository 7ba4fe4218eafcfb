import IngestCore

/// Which IANA time zone holds a position: the world's zone boundaries, with the oceans' nautical
/// zones (`Etc/GMT+N`) where no country's zone reaches.
public protocol ZoneMap: Sendable {
    /// The zone at `position`, or nil for a position off the globe.
    /// - Throws: ``IngestError`` when the map could not be read.
    func zoneName(at position: GeoPosition) throws(IngestError) -> String?
}
