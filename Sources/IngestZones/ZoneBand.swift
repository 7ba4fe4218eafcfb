/// One polygon's edges in one latitude band, as `scripts/zone-data` writes them, and the crossing
/// count that says whether a point lies inside.
///
/// The bytes are runs of consecutive points: each run is its point count, its first point, then
/// each point's step from the one before, all zigzag LEB128 varints of degrees times 10^7
/// (longitude, then latitude). Every edge of the polygon (holes included) that meets the band is in
/// some run, so a ray from the point eastwards crosses only edges found here.
struct ZoneBand {
    let bytes: UnsafeRawBufferPointer

    /// Whether (x, y) lies inside: an odd number of edges crosses the ray eastwards from it. An
    /// edge counts when it spans y half-open (one end at or below, the other above), so a vertex
    /// on the ray counts once. Nil for a damaged band: bytes that end inside a run, or a point off
    /// the globe (which would also overflow the products below).
    func holds(x: Int64, y: Int64) -> Bool? {
        var reader = VarintReader(bytes: self.bytes)
        var inside = false
        while !reader.isAtEnd {
            guard let count = reader.next(), count >= 1, var px = reader.next(), var py = reader.next(),
                Self.isOnTheGlobe(px, py)
            else { return nil }
            for _ in 1..<count {
                guard let dx = reader.next(), let dy = reader.next() else { return nil }
                let (qx, qy) = (px &+ dx, py &+ dy)
                guard Self.isOnTheGlobe(qx, qy) else { return nil }
                if (py <= y) != (qy <= y) {
                    // The crossing lies east of x when (x - px) / (qx - px) < (y - py) / (qy - py),
                    // compared as products (each within Int64 for degrees times 10^7) so that it
                    // stays exact.
                    let along = (qx - px) * (y - py)
                    let across = (x - px) * (qy - py)
                    if qy > py ? along > across : along < across { inside.toggle() }
                }
                (px, py) = (qx, qy)
            }
        }
        return inside
    }

    /// Within ±180° and ±90° (times 10^7).
    static func isOnTheGlobe(_ x: Int64, _ y: Int64) -> Bool {
        abs(x) <= 1_800_000_000 && abs(y) <= 900_000_000
    }
}

/// Zigzag LEB128 varints, bounds-checked: nil past the end or for a value over 64 bits.
struct VarintReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    var isAtEnd: Bool { self.position >= self.bytes.count }

    mutating func next() -> Int64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while self.position < self.bytes.count, shift < 64 {
            let byte = self.bytes[self.position]
            self.position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
            shift += 7
        }
        return nil
    }
}
