import Benchmark
import Foundation
import IngestArchive
import IngestCatalog
import IngestContainers
import IngestCore
import IngestDestinations
import IngestHashing
import IngestImaging
import IngestPipeline
import IngestTransport
import IngestZones

/// Micro benchmarks of each stage's own work, and the whole pipeline over a small corpus.
///
/// Photos come from `../.bench/corpus-200` when scripts/bench made it, else from `../samples`.
/// Every benchmark fails `swift package benchmark baseline check` when its p90 wall clock grows
/// by more than the threshold against the baseline (see the README).
let benchmarks: @Sendable () -> Void = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let benchCorpus = repository.appendingPathComponent(".bench/corpus-200")
    let photoFolder =
        FileManager.default.fileExists(atPath: benchCorpus.appendingPathComponent("IMG_0001.jpg").path)
        ? benchCorpus : repository.appendingPathComponent("samples")
    let photo = Array((try? Data(contentsOf: photoFolder.appendingPathComponent("IMG_0001.jpg"))) ?? Data())
    try? ImagingLibrary.bootstrap()

    func configuration(_ metrics: [BenchmarkMetric], maxSeconds: Int = 5) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: metrics, timeUnits: .milliseconds, warmupIterations: 2, scalingFactor: .one,
            maxDuration: .seconds(maxSeconds), maxIterations: 1_000,
            thresholds: [.wallClock: .init(relative: [.p90: 15])])
    }

    func microseconds(_ configuration: Benchmark.Configuration) -> Benchmark.Configuration {
        var configuration = configuration
        configuration.timeUnits = .microseconds
        return configuration
    }

    let megabytes = [UInt8](repeating: 0x5A, count: 4 << 20)
    Benchmark("SHA-256 of 4 MiB", configuration: configuration([.wallClock, .throughput])) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ContentHasher.hash(megabytes))
        }
    }

    Benchmark(
        "EXIF capture time of one photo",
        configuration: microseconds(configuration([.wallClock, .throughput, .mallocCountTotal]))
    ) {
        benchmark in
        let resolver = CaptureTimeResolver(assumedZone: TimeZone(identifier: "UTC")!)
        for _ in benchmark.scaledIterations {
            let fields = photo.withUnsafeBytes { MetadataReader.timeFields(in: $0, kind: .jpeg) }
            blackHole(resolver.resolve(fields, fileModified: Date()))
        }
    }

    // The zone file scripts/zone-data writes; these two are left out without it.
    if let zonePath = ZoneBoundaries.standardPaths().first(where: { FileManager.default.fileExists(atPath: $0) }) {
        Benchmark(
            "Zone file start-up (open, check, read the zone names)",
            configuration: microseconds(configuration([.wallClock, .throughput, .mallocCountTotal]))
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? ZoneBoundaries(path: zonePath))
            }
        }

        // Random points anywhere (two thirds at sea), and random points over Europe's many borders;
        // a thousand lookups a sample, a new point each, on one open file (as a run has it).
        let zones = try? ZoneBoundaries(path: zonePath)
        for (name, latitudes, longitudes) in [
            ("anywhere", -80.0...80.0, -180.0...180.0), ("in Europe", 36.0...60.0, -10.0...30.0),
        ] {
            var random = SplitMix64(seed: 2026)
            let points = (0..<4_096).map { _ in
                GeoPosition(
                    latitude: Double.random(in: latitudes, using: &random),
                    longitude: Double.random(in: longitudes, using: &random))
            }
            var lookups = microseconds(configuration([.wallClock, .throughput, .mallocCountTotal]))
            lookups.scalingFactor = .kilo
            Benchmark("Zone at a GPS position, \(name)", configuration: lookups) { benchmark in
                guard let zones else { return }
                var next = 0
                for _ in benchmark.scaledIterations {
                    blackHole(try? zones.zoneName(at: points[next % points.count]))
                    next += 1
                }
            }
        }
    }

    Benchmark(
        "Thumbnails 500 and 200 from one decode",
        configuration: configuration([.wallClock, .throughput, .peakMemoryResident], maxSeconds: 10)
    ) {
        benchmark in
        let thumbnailer = Thumbnailer()
        for _ in benchmark.scaledIterations {
            blackHole(try photo.withUnsafeBytes { try thumbnailer.thumbnails(of: $0) })
        }
    }

    Benchmark("Catalog writes, 256 rows a transaction", configuration: configuration([.wallClock, .throughput])) {
        benchmark in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-catalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let catalog = try? Catalog(path: folder.appendingPathComponent("catalog.sqlite").path),
            let run = try? await catalog.beginRun(destination: "bench", event: "bench")
        else { return }
        var serial = 0
        for _ in benchmark.scaledIterations {
            let records = (0..<256).map { _ in
                serial += 1
                return CatalogRecord(
                    path: "/photos/\(serial).jpg",
                    stamp: FileStamp(size: 4_000_000, modifiedNanoseconds: 1, inode: UInt64(serial)),
                    sha256: ContentHasher.hash(Array("\(serial)".utf8)), mediaType: "image/jpeg",
                    capture: CaptureTime(instant: Date(), source: .exifOffset), destination: "bench", event: "bench",
                    window: "../..", status: .uploaded, reason: nil)
            }
            try? await catalog.record(records, run: run)
        }
    }

    Benchmark("Multipart upload of one photo over loopback", configuration: configuration([.wallClock, .throughput])) {
        benchmark in
        let sink = HTTPSink()
        let transport = try HTTPTransport(options: TransportOptions())
        defer { transport.shutdown() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-upload-\(UUID().uuidString).jpg")
        try? Data(photo).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let parts = [
            FormPart(name: "eventId", content: .text("bench")),
            FormPart(
                name: "file", content: .file(path: file.path, size: Int64(photo.count)), filename: "IMG.jpg",
                contentType: "image/jpeg"),
        ]
        for _ in benchmark.scaledIterations {
            blackHole(
                await transport.perform(
                    HTTPRequest(method: .post, url: "http://127.0.0.1:\(sink.port)/upload", body: .multipart(parts))))
        }
    }

    Benchmark(
        "Whole pipeline over 8 photos into an archive",
        configuration: configuration([.wallClock, .throughput, .peakMemoryResident], maxSeconds: 20)
    ) {
        benchmark in
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: photoFolder.path)) ?? []).filter {
            $0.hasSuffix(".jpg")
        }.sorted()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("bench-input-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: input) }
        for name in names.prefix(8) {
            try? FileManager.default.copyItem(
                at: photoFolder.appendingPathComponent(name), to: input.appendingPathComponent(name))
        }
        final class Quiet: RunObserver {
            func started(_ path: String) {}
            func finished(_ outcome: FileOutcome, event: Event, report: RunReport) {}
            func progressed(_ progress: RunProgress) {}
        }
        for _ in benchmark.scaledIterations {
            let archiveFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bench-archive-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: archiveFolder) }
            guard let archive = try? Archive(root: archiveFolder.path) else { return }
            let limits = Limits(jobs: 2)
            let context = StageContext(logger: .init(label: "bench"), limits: limits)
            let pipeline = Pipeline(
                configuration: RunConfiguration(
                    paths: [input.path], events: [Event(id: "bench", name: "bench")], limits: limits,
                    timeZone: TimeZone(identifier: "UTC")!),
                destination: ArchiveDestination(archive: archive, io: context.io), catalog: nil, context: context)
            blackHole(try? await pipeline.run(observer: Quiet(), stop: StopRequest()))
            context.shutdown()
        }
    }
}
