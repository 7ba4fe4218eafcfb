import Foundation
import IngestCore

/// Finds how far a camera's clock is off from the photos alone: the offset that lines its photos
/// up best with those of clocks that can be trusted (a phone's, a GPS fix's) taken at the same
/// event.
///
/// People at one event photograph the same moments (the speech, the cake, the first dance), each
/// in a burst. Shifted by the right offset, a body's bursts fall on the trusted ones; shifted by
/// another, they mostly fall between them. Every pairwise difference (trusted minus body) within
/// a day is a candidate; the densest clusters of differences, each refined to its median, are
/// weighed by the body's bursts they line up, and the best is counted against the best far from it.
/// Only a clear winner is suggested; docs/capture-time.md gives the rates measured.
public enum ClockSkew {
    /// What the photos say of one body's clock.
    public struct Finding: Sendable, Equatable {
        /// Seconds to add to the body's clock: the best line-up, to the second.
        public var seconds: Int
        /// The body's bursts (shots less than ``burstGap`` apart) that land within ``tolerance``
        /// of a trusted photo, shifted by it.
        public var matched: Int
        /// The body's bursts looked at.
        public var bursts: Int
        /// The bursts lined up by the best offset more than ``separation`` away: chance's score.
        public var runnerUp: Int

        /// Whether the line-up stands clear of chance: three bursts at least and a third of them,
        /// three more than any offset far from it lines up, and half as many again.
        public var isClear: Bool {
            self.matched >= max(ClockSkew.minimumBursts, (self.bursts + 2) / 3)
                && self.matched >= self.runnerUp + 3 && 2 * self.matched >= 3 * self.runnerUp
        }
    }

    /// Two shots of one moment by two people lie within this of each other.
    public static let tolerance: Double = 30
    /// Shots closer than this to the one before are one burst: one moment.
    public static let burstGap: Double = 120
    /// Offsets closer than this to the best are the same line-up.
    public static let separation: Double = 600
    /// A clock is looked for within a day of the trusted ones.
    public static let range: Double = 86_400
    /// Fewer lined-up bursts than this say nothing.
    public static let minimumBursts = 3
    /// Photos looked at on each side at most: a bounded cost whatever the run's size.
    static let sampleLimit = 1_500
    /// The densest clusters of differences weighed, by the bursts each lines up.
    static let candidates = 24

    /// The offset that lines `photos` (a body's instants, seconds) up best with `trusted` ones;
    /// nil when either side has too few photos.
    public static func find(_ photos: [Double], trusted: [Double]) -> Finding? {
        let body = Self.sample(photos.sorted())
        let reference = Self.sample(trusted.sorted())
        guard body.count >= Self.minimumBursts, reference.count >= Self.minimumBursts else { return nil }
        var differences: [Double] = []
        for time in body {
            var index = Self.firstIndex(in: reference, notBelow: time - Self.range)
            while index < reference.count, reference[index] <= time + Self.range {
                differences.append(reference[index] - time)
                index += 1
            }
        }
        differences.sort()
        let bursts = Self.bursts(body)
        // Each dense cluster refined to the median difference in it, then judged by the bursts
        // it lines up, not the pairs: one long burst against another makes many pairs by chance.
        let scored = Self.clusters(differences).map { centre -> (offset: Double, bursts: Int) in
            let near = differences[
                Self.firstIndex(
                    in: differences, notBelow: centre - Self.tolerance)..<Self.firstIndex(
                        in: differences, notBelow: centre + Self.tolerance + 0.001)]
            let offset = near.isEmpty ? centre : near[near.startIndex + near.count / 2]
            return (offset, Self.matched(bursts, reference, offset))
        }
        guard let best = scored.max(by: { $0.bursts < $1.bursts }) else { return nil }
        let runnerUp = scored.filter { abs($0.offset - best.offset) > Self.separation }.map(\.bursts).max() ?? 0
        return Finding(
            seconds: Int(best.offset.rounded()), matched: best.bursts, bursts: bursts.count, runnerUp: runnerUp)
    }

    /// The centres of the densest windows (2 × ``tolerance`` wide) of `sorted` differences, at
    /// most ``candidates``, none within a window of a denser one.
    static func clusters(_ sorted: [Double]) -> [Double] {
        var windows: [(count: Int, centre: Double)] = []
        var low = 0
        for high in sorted.indices {
            while sorted[high] - sorted[low] > 2 * Self.tolerance { low += 1 }
            windows.append((high - low + 1, (sorted[low] + sorted[high]) / 2))
        }
        var chosen: [Double] = []
        for window in windows.sorted(by: { $0.count > $1.count }) {
            guard chosen.count < Self.candidates else { break }
            if chosen.allSatisfy({ abs($0 - window.centre) > 2 * Self.tolerance }) { chosen.append(window.centre) }
        }
        return chosen
    }

    /// `sorted` instants in bursts: each a run of shots less than ``burstGap`` apart.
    static func bursts(_ sorted: [Double]) -> [[Double]] {
        var bursts: [[Double]] = []
        for time in sorted {
            if let last = bursts.last?.last, time - last < Self.burstGap {
                bursts[bursts.count - 1].append(time)
            } else {
                bursts.append([time])
            }
        }
        return bursts
    }

    /// How many `bursts`, shifted by `offset`, have a shot within ``tolerance`` of one of `reference`.
    static func matched(_ bursts: [[Double]], _ reference: [Double], _ offset: Double) -> Int {
        bursts.filter { burst in
            burst.contains { time in
                let index = Self.firstIndex(in: reference, notBelow: time + offset - Self.tolerance)
                return index < reference.count && reference[index] <= time + offset + Self.tolerance
            }
        }.count
    }

    /// The first index of `sorted` whose value is at least `value`.
    static func firstIndex(in sorted: [Double], notBelow value: Double) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// At most ``sampleLimit`` of `sorted`, evenly spread.
    static func sample(_ sorted: [Double]) -> [Double] {
        guard sorted.count > Self.sampleLimit else { return sorted }
        return (0..<Self.sampleLimit).map { sorted[$0 * sorted.count / Self.sampleLimit] }
    }
}
