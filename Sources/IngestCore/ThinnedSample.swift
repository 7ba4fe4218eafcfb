/// A sample of a stream of values in bounded memory: every value up to ``limit``, then every
/// second, fourth, … value in the order they came.
///
/// A run or a watch may see any number of photos; what is kept of them for the clocks' line-up
/// must not grow with them. Each value kept stands for the same number of values seen, so the
/// sample stays even over the stream, and the same stream gives the same sample.
public struct ThinnedSample: Sendable {
    /// The values kept, in the order they came.
    public private(set) var values: [Double] = []
    /// The values seen, kept or not.
    public private(set) var seen = 0
    /// The most values kept: one more, and the sample is thinned to half.
    public let limit: Int
    /// One value in this many is kept.
    private var stride = 1

    public init(limit: Int) {
        precondition(limit >= 2, "a thinned sample keeps two values at least")
        self.limit = limit
    }

    public mutating func add(_ value: Double) {
        defer { self.seen += 1 }
        guard self.seen % self.stride == 0 else { return }
        self.values.append(value)
        guard self.values.count > self.limit else { return }
        // The values kept are the multiples of the stride; every other one of them is a multiple
        // of twice the stride, which the values still to come are then kept by.
        self.values = Swift.stride(from: 0, to: self.values.count, by: 2).map { self.values[$0] }
        self.stride *= 2
    }
}
