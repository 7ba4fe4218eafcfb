// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is named after its folder: the repository's, whatever it was cloned as.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// A package of its own so that `swift test` in the repository never builds the benchmark harness.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Ingest",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PhotoIngest", package: repository),
            ],
            path: "Ingest",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
