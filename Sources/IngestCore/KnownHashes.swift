/// The hashes a destination already holds for one event, as a sorted array searched by bisection.
///
/// A run holds one per event for its whole length, and a server's event may hold hundreds of
/// thousands of photos: 32 bytes a hash here, against about 80 in a `Set` (20 events of 100,000
/// hashes: 64 MB instead of 163).
public struct KnownHashes: Sendable, Equatable, ExpressibleByArrayLiteral {
    private let sorted: [ContentHash]

    /// Any order, repeats allowed.
    public init(_ hashes: some Sequence<ContentHash>) {
        var sorted = Array(hashes)
        sorted.sort()
        var unique = 0
        for index in sorted.indices where unique == 0 || sorted[unique - 1] != sorted[index] {
            sorted[unique] = sorted[index]
            unique += 1
        }
        sorted.removeLast(sorted.count - unique)
        self.sorted = sorted
    }

    public init(arrayLiteral hashes: ContentHash...) {
        self.init(hashes)
    }

    public var count: Int { self.sorted.count }

    public func contains(_ hash: ContentHash) -> Bool {
        var low = 0
        var high = self.sorted.count
        while low < high {
            let middle = low + (high - low) / 2
            if self.sorted[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < self.sorted.count && self.sorted[low] == hash
    }
}
