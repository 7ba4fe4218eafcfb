// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "photoingest",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photoingest", targets: ["photoingest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // One-line wrappers for what Swift cannot call: varargs and macros.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(name: "CExifShim", dependencies: ["CExif"]),

        .target(
            name: "IngestCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "IngestImaging", dependencies: ["IngestCore", "CVipsShim", "CExifShim"]),
        .target(
            name: "IngestCatalog",
            dependencies: ["IngestCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "IngestArchive",
            dependencies: ["IngestCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "IngestPipeline",
            dependencies: [
                "IngestCore", "IngestImaging", "IngestCatalog", "IngestArchive",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // Helpers for the tests: temporary folders, the shared corpus, running tools.
        .target(name: "IngestTesting", dependencies: ["IngestCore"]),
        .executableTarget(
            name: "photoingest",
            dependencies: [
                "IngestCore", "IngestPipeline", "IngestImaging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "IngestCoreTests", dependencies: ["IngestCore", "IngestTesting"]),
        .testTarget(name: "IngestImagingTests", dependencies: ["IngestImaging", "IngestTesting"]),
        .testTarget(name: "IngestCatalogTests", dependencies: ["IngestCatalog", "IngestTesting"]),
        .testTarget(name: "IngestArchiveTests", dependencies: ["IngestArchive", "IngestTesting"]),
        .testTarget(
            name: "IngestPipelineTests",
            dependencies: ["IngestPipeline", "IngestImaging", "IngestArchive", "IngestCatalog", "IngestTesting"]),
        // Runs the built command line, as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["photoingest", "IngestCore", "IngestTesting"]),
    ]
)
