/// A still that carries its clip inside (Google's and Samsung's motion photos): said by the
/// `GCamera` XMP properties `MotionPhoto` (the current format) or `MicroVideo` (the older one) in
/// a JPEG's XMP segment.
///
/// Samsung's older files, which mark the clip only in their `SEFT` trailer, are not recognised.
public enum MotionPhoto {
    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The property, set to 1, as an attribute (either quote) or as an element.
    static let markers: [(name: String, forms: [[UInt8]])] = ["MotionPhoto", "MicroVideo"].map { name in
        (name, ["GCamera:\(name)=\"1\"", "GCamera:\(name)='1'", "<GCamera:\(name)>1<"].map { Array($0.utf8) })
    }

    /// The XMP property that says the JPEG carries a clip, or nil when none does.
    public static func property(in bytes: UnsafeRawBufferPointer, kind: MediaKind) -> String? {
        guard kind == .jpeg else { return nil }
        let reader = ByteReader(bytes)
        guard
            let segment = JPEGSegment.first(
                in: reader,
                where: { segment in
                    segment.marker == 0xE1
                        && reader.slice(segment.payload.lowerBound, Self.xmpHeader.count)?.elementsEqual(Self.xmpHeader)
                            == true
                }),
            let xmp = reader.slice(segment.payload.lowerBound, segment.payload.count)
        else { return nil }
        for marker in Self.markers where marker.forms.contains(where: { Self.contains(xmp, $0) }) {
            return "GCamera:\(marker.name)"
        }
        return nil
    }

    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && needle.indices.allSatisfy { haystack[start + $0] == needle[$0] }
        }
    }
}
