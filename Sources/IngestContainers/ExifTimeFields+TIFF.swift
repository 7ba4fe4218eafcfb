import IngestCore

extension ExifTimeFields {
    /// The time fields of EXIF kept in `structures` (one for most files; CR3 keeps three), each
    /// searched in turn. A tag is looked up in the EXIF IFD, then IFD0 and IFD1, where some cameras
    /// put DateTimeOriginal; GPS tags only in the GPS IFD, since other IFDs reuse their numbers.
    /// Nil when no structure has a single entry.
    public init?(_ structures: [TIFFStructure]) {
        guard structures.contains(where: { $0.directories.contains { !$0.entries.isEmpty } }) else { return nil }
        func string(_ tag: UInt16, in kinds: [TIFFStructure.DirectoryKind] = [.exif, .main(0), .main(1)]) -> String? {
            for tiff in structures {
                if let entry = tiff.entry(tag, in: kinds), let value = tiff.string(entry) { return value }
            }
            return nil
        }
        func rationals(_ tag: UInt16) -> [ExifRational]? {
            for tiff in structures {
                if let values = tiff.entry(tag, in: [.gps]).flatMap(tiff.rationals) { return values }
            }
            return nil
        }
        self.init(
            dateTimeOriginal: string(0x9003),
            subSecTimeOriginal: string(0x9291),
            offsetTimeOriginal: string(0x9011),
            dateTimeDigitized: string(0x9004),
            subSecTimeDigitized: string(0x9292),
            offsetTimeDigitized: string(0x9012),
            gpsDateStamp: string(0x001D, in: [.gps]),
            gpsTimeStamp: rationals(0x0007),
            gpsStatus: string(0x0009, in: [.gps]),
            gpsLatitudeRef: string(0x0001, in: [.gps]),
            gpsLatitude: rationals(0x0002),
            gpsLongitudeRef: string(0x0003, in: [.gps]),
            gpsLongitude: rationals(0x0004))
    }
}
