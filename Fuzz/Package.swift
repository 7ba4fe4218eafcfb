// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is named after its folder: the repository's, whatever it was cloned as.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// A package of its own: the harness links libFuzzer's main, so it builds only with
// `-sanitize=fuzzer` (scripts/fuzz does that), never in `swift build` or `swift test`.
let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzerDriver", path: "FuzzerDriver"),
        .executableTarget(
            name: "ParserFuzzer",
            dependencies: ["FuzzerDriver", .product(name: "IngestSamples", package: repository)],
            path: "ParserFuzzer"),
    ]
)
