import Foundation

/// Per-stage durations over a run, as histograms: p50 and p95 in constant memory whatever the
/// number of files.
public struct StageTimings: Sendable {
    public enum Stage: String, Sendable, CaseIterable {
        case read, hash, exif, thumbnail, store
    }

    /// One file's durations, in seconds, for the stages it went through.
    public struct Sample: Sendable {
        public var seconds: [Stage: Double] = [:]
        public init() {}
    }

    private var histograms: [Stage: LatencyHistogram] = [:]

    public init() {}

    public mutating func add(_ sample: Sample) {
        for (stage, seconds) in sample.seconds {
            self.histograms[stage, default: LatencyHistogram()].add(seconds)
        }
    }

    public func histogram(_ stage: Stage) -> LatencyHistogram? { self.histograms[stage] }
}

/// A log-scale histogram of durations from 1 µs to hours, each bucket about 4.4% wide.
public struct LatencyHistogram: Sendable {
    /// Buckets per doubling.
    static let resolution = 16.0
    private var buckets: [Int] = []
    public private(set) var count = 0
    public private(set) var total = 0.0

    public init() {}

    public mutating func add(_ seconds: Double) {
        let micros = max(seconds * 1e6, 1)
        let index = Int((log2(micros) * Self.resolution).rounded(.down))
        if index >= self.buckets.count {
            self.buckets.append(contentsOf: repeatElement(0, count: index + 1 - self.buckets.count))
        }
        self.buckets[index] += 1
        self.count += 1
        self.total += seconds
    }

    /// The duration below which `fraction` of the samples fall (the bucket's upper edge), in seconds.
    public func percentile(_ fraction: Double) -> Double? {
        guard self.count > 0 else { return nil }
        let target = max(1, Int((Double(self.count) * fraction).rounded(.up)))
        var seen = 0
        for (index, bucket) in self.buckets.enumerated() {
            seen += bucket
            if seen >= target { return pow(2, Double(index + 1) / Self.resolution) / 1e6 }
        }
        return nil
    }
}
