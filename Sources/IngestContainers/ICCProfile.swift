import Foundation
import IngestCore

/// What an embedded ICC profile says about a photo's colours, read from its untrusted bytes.
///
/// Enough to tell whether it is sRGB. Then converting the thumbnail to sRGB is an identity that
/// need not be computed (building the transform costs more than the rest of a small thumbnail).
///
/// Judged by the numbers, not the name: an RGB profile whose red, green and blue colorants are
/// sRGB's (adapted to D50, as ICC profiles carry them) and whose three tone curves follow sRGB's
/// within a rounding step. "Display P3" fails on its colorants, "DCI-P3 with sRGB transfer" too;
/// a gamma-2.2 "sRGB" fails on its curves.
public struct ICCProfile: Sendable, Equatable {
    /// The data colour space, e.g. `RGB ` or `CMYK`.
    public var colourSpace: String
    /// Whether its colorants and tone curves are sRGB's.
    public var isSRGB: Bool

    /// Reads the profile's header and tag table; nil when the bytes are not an ICC profile.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        let reader = ByteReader(bytes)
        guard bytes.count >= 132, reader.fourCC(36) == "acsp" else { return nil }
        self.colourSpace = reader.fourCC(16)
        let tags = Self.tags(reader)
        guard self.colourSpace == "RGB ", reader.fourCC(20) == "XYZ " else {
            self.isSRGB = false
            return
        }
        let colorants = ["rXYZ", "gXYZ", "bXYZ"].map { tags[$0].flatMap { Self.xyz(reader, $0) } }
        let curves = ["rTRC", "gTRC", "bTRC"].map { tags[$0].flatMap { Self.curve(reader, $0) } }
        self.isSRGB =
            zip(colorants, Self.srgbColorants).allSatisfy { found, expected in
                guard let found else { return false }
                return zip(found, expected).allSatisfy { abs($0 - $1) <= 0.002 }
            }
            && curves.allSatisfy { curve in
                guard let curve else { return false }
                return Self.probes.allSatisfy { abs(curve($0) - Self.srgbDecode($0)) <= 0.002 }
            }
    }

    /// sRGB's primaries as an ICC profile carries them (Bradford-adapted to D50).
    static let srgbColorants: [[Double]] = [
        [0.4361, 0.2225, 0.0139], [0.3851, 0.7169, 0.0971], [0.1431, 0.0606, 0.7141],
    ]
    /// Where the tone curves are compared, spread over the dark end, where gamma 2.2 and sRGB differ most.
    static let probes: [Double] = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1]

    /// sRGB's decoding curve (IEC 61966-2-1).
    static func srgbDecode(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// The tag table: signature to (offset, size), for tags that lie inside the profile.
    static func tags(_ reader: ByteReader) -> [String: (offset: Int, size: Int)] {
        let count = Int(reader.u32be(128))
        var tags: [String: (offset: Int, size: Int)] = [:]
        // 12 bytes an entry: a count that runs past the bytes is cut to what is there.
        for index in 0..<min(count, (reader.count - 132) / 12) {
            let entry = 132 + index * 12
            let offset = Int(reader.u32be(entry + 4))
            let size = Int(reader.u32be(entry + 8))
            guard reader.slice(offset, size) != nil else { continue }
            tags[reader.fourCC(entry)] = (offset, size)
        }
        return tags
    }

    /// An `XYZ ` tag's first value.
    static func xyz(_ reader: ByteReader, _ tag: (offset: Int, size: Int)) -> [Double]? {
        guard tag.size >= 20, reader.fourCC(tag.offset) == "XYZ " else { return nil }
        return (0..<3).map { Self.s15Fixed16(reader.u32be(tag.offset + 8 + $0 * 4)) }
    }

    static func s15Fixed16(_ raw: UInt32) -> Double { Double(Int32(bitPattern: raw)) / 65_536 }

    /// A `curv` (gamma or table) or `para` (parametric) tone curve, as a function on 0...1.
    static func curve(_ reader: ByteReader, _ tag: (offset: Int, size: Int)) -> ((Double) -> Double)? {
        switch reader.fourCC(tag.offset) {
        case "curv":
            let count = Int(reader.u32be(tag.offset + 8))
            guard tag.size >= 12 + count * 2 else { return nil }
            if count == 0 { return { $0 } }
            if count == 1 {
                let gamma = Double(reader.u16be(tag.offset + 12)) / 256
                return { pow($0, gamma) }
            }
            // A table sampled evenly over 0...1, read between samples linearly.
            return { value in
                let position = min(max(value, 0), 1) * Double(count - 1)
                let below = Int(position.rounded(.down))
                let above = min(below + 1, count - 1)
                let low = Double(reader.u16be(tag.offset + 12 + below * 2))
                let high = Double(reader.u16be(tag.offset + 12 + above * 2))
                return (low + (high - low) * (position - Double(below))) / 65_535
            }
        case "para":
            let function = Int(reader.u16be(tag.offset + 8))
            let counts = [1, 3, 4, 5, 7]
            guard function < counts.count, tag.size >= 12 + counts[function] * 4 else { return nil }
            let p = (0..<counts[function]).map { Self.s15Fixed16(reader.u32be(tag.offset + 12 + $0 * 4)) }
            return { x in
                switch function {
                case 0: pow(x, p[0])
                case 1: x >= -p[2] / p[1] ? pow(p[1] * x + p[2], p[0]) : 0
                case 2: x >= -p[2] / p[1] ? pow(p[1] * x + p[2], p[0]) + p[3] : p[3]
                case 3: x >= p[4] ? pow(p[1] * x + p[2], p[0]) : p[3] * x
                default: x >= p[4] ? pow(p[1] * x + p[2], p[0]) + p[5] : p[3] * x + p[6]
                }
            }
        default:
            return nil
        }
    }
}
