import Foundation
import Synchronization

/// Names for the archive's temporary files: a random prefix drawn once, then a count.
///
/// As unique as a UUID a file (the prefix is one: no other process, nor a killed one's leftovers,
/// shares it), at the cost of a counter. Drawing a UUID for each of a photo's three files cost a
/// small photo's ingest about 1% of its CPU.
final class TemporaryNames: Sendable {
    private let prefix = UUID().uuidString
    private let count = Atomic<Int>(0)

    func next() -> String {
        "\(self.prefix)-\(self.count.wrappingAdd(1, ordering: .relaxed).oldValue)"
    }
}
