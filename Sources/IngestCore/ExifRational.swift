/// A TIFF RATIONAL: two unsigned 32-bit integers.
public struct ExifRational: Sendable, Equatable {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }
}
