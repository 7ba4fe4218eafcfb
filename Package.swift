// swift-tools-version: 6.1
import PackageDescription

/// The release this tree builds. `--version` prints it with the commit, read from git when the
/// manifest is evaluated ("unknown" outside a checkout; "-dirty" with uncommitted changes). SwiftPM
/// reuses an evaluation while Package.swift is unchanged: a fresh clone (CI, scripts/package, which
/// asks for a new evaluation) names its commit exactly, an incremental build may name an older one.
let version = "0.6.0"
let commit =
    Context.gitInformation.map { String($0.currentCommit.prefix(12)) + ($0.hasUncommittedChanges ? "-dirty" : "") }
    ?? "unknown"

/// libvips and FFmpeg bring about 150 libraries, which cost every run 45 ms before `main` when
/// linked, libcurl 30 more (7 ms), and libxml2 ICU. On x86_64 they are opened on first use through
/// CLazyLibrary's trampolines instead; elsewhere (no trampolines there) they are linked as usual.
#if arch(x86_64)
    let lazilyOpenedLibraries: [LinkerSetting] = []
#else
    let lazilyOpenedLibraries: [LinkerSetting] = [
        "vips", "jpeg", "avformat", "avcodec", "swscale", "avutil", "curl", "xml2",
    ]
    .map {
        .linkedLibrary($0)
    }
#endif

let package = Package(
    name: "photoingest",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photoingest", targets: ["photoingest"]),
        .executable(name: "photoshare-server", targets: ["photoshare-server"]),
        // For Benchmarks/, a separate package, so that `swift test` never builds the benchmark harness.
        .library(
            name: "PhotoIngest",
            targets: [
                "IngestCore", "IngestContainers", "IngestHashing", "IngestImaging", "IngestCatalog", "IngestArchive",
                "IngestTransport", "IngestDiscovery", "IngestOutcome", "IngestDestinations", "IngestPipeline",
                "IngestZones",
            ]),
        // For Fuzz/, the libFuzzer harness: the parsers' fuzz target and the sample files.
        .library(name: "IngestSamples", targets: ["IngestSamples"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        // Settings from flags, PHOTOINGEST_* variables and a YAML file, with one precedence.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: [.defaults, "YAML"]),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // --metrics-file: Prometheus text for node_exporter's textfile collector.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C libraries from Debian; pkg-config gives the headers (and links the library) where named.
        // libvips's headers need GLib's; libvips itself is opened on first use (CLazyLibrary), so
        // its pkg-config entry, which would link it, is not used.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // zlib, linked: inflate for the entries of zip files. 100 KiB with no dependencies of its
        // own, where libvips, FFmpeg and libcurl are opened on first use for their start-up cost.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate, linked: a photo's zip entry inflated whole, 1.4x zlib's speed on JPEG data
        // (334 against 234 MB/s here), and its CRC-32 at 6 GB/s. libtiff, under libvips, loads it anyway.
        .systemLibrary(name: "CLibDeflate", providers: [.apt(["libdeflate-dev"])]),
        // libxml2's reader, for XMP sidecars: the parsers' one C library, opened on first use
        // (CLazyLibrary), behind a shim (its headers bring ICU's, which clash with Foundation's).
        // Debian's libxml2-dev keeps the headers in their own folder; no pkg-config here, which
        // would link the library at start-up.
        .target(
            name: "CLibXML2Shim", dependencies: ["CLazyLibrary"],
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // Headers in the compiler's own multiarch folder; the libraries are opened on first use.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // libvips and FFmpeg opened on first use rather than linked: they cost every run 45 ms at start.
        .target(name: "CLazyLibrary", linkerSettings: lazilyOpenedLibraries),
        // One-line wrappers for what Swift cannot call: varargs and macros.
        // orc_lock.c serialises ORC's compile and free for libvips (issue 32): the executables
        // export both, so that libvips binds to them ahead of ORC's own.
        .target(
            name: "CVipsShim", dependencies: ["CVips", "CLazyLibrary"],
            linkerSettings: [
                .unsafeFlags(
                    ["orc_program_compile", "orc_program_free"].flatMap {
                        ["-Xlinker", "--export-dynamic-symbol=\($0)"]
                    }, .when(platforms: [.linux]))
            ]),
        // libjpeg's compressor (libjpeg-turbo, which libvips opens anyway; headers from libjpeg-dev,
        // which libvips-dev brings): thumbnails encoded on the worker's own thread, not handed to
        // libvips's thread pool (issue 56). Opened on first use, with libvips.
        .target(name: "CJPEGShim", dependencies: ["CLazyLibrary"]),
        .target(name: "CCurlShim", dependencies: ["CCurl", "CLazyLibrary"]),
        // statfs(2) and sync_file_range(2), which Swift's Glibc module does not bring: the watch
        // polls where inotify is blind; the archive starts the writeback of a group before waiting.
        .target(name: "CFileSystemShim"),
        .target(name: "CFFmpegShim", dependencies: ["CFFmpeg", "CLazyLibrary"]),

        // `--version` of both executables.
        .target(
            name: "CBuildInfo",
            cSettings: [
                .define("PHOTOINGEST_VERSION", to: "\"\(version)\""),
                .define("PHOTOINGEST_COMMIT", to: "\"\(commit)\""),
            ]),

        // Domain types: what a file, an event, a time and an error are. No dependency.
        .target(name: "IngestCore", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // When a photo was taken: the capture time and its sources, the rules that read each
        // source (EXIF, XMP, QuickTime, Takeout, iCloud, file names, GPS), the resolver that
        // weighs them, camera clocks and their corrections, and where a time falls by a window.
        // A new source of capture times lands here. Pure Swift over IngestCore.
        .target(name: "IngestDating", dependencies: ["IngestCore"]),
        // Every parser of untrusted bytes (container walkers, EXIF, QuickTime boxes, ICC profiles,
        // the sniffer, whether a file is whole): Swift, bounds-checked, and all that the fuzz
        // harness builds. Its C: libxml2's reader for XMP (opened on first use), zlib and
        // libdeflate for zip entries; no swift-crypto.
        .target(name: "IngestContainers", dependencies: ["IngestCore", "CLibXML2Shim", "CZlib", "CLibDeflate"]),
        // SHA-256 (swift-crypto): files' content hashes, and the shard a path falls in.
        .target(
            name: "IngestHashing", dependencies: ["IngestCore", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "IngestImaging",
            dependencies: ["IngestCore", "IngestContainers", "CVipsShim", "CJPEGShim", "CFFmpegShim"]
        ),
        // PhotoShare client: libcurl multi on one thread, tokens, retries.
        .target(name: "IngestTransport", dependencies: ["IngestCore", "CCurlShim"]),
        .target(
            name: "IngestCatalog",
            dependencies: ["IngestCore", "IngestDating", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The world's time-zone boundaries, for photos dated by where they were taken.
        .target(
            name: "IngestZones",
            dependencies: ["IngestCore", "IngestDating", .product(name: "GRDB", package: "GRDB.swift")]),
        // The local archive: originals by hash, thumbnails, the index. Its C: sync_file_range, to
        // make a group of stored files durable at once.
        .target(
            name: "IngestArchive",
            dependencies: [
                "IngestCore", "IngestHashing", "CFileSystemShim", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Stage 0 and the watch: the walk (folders, zip files, sidecars, Takeout and iCloud names,
        // exclusion rules, shards) and, for `watch`, the folders followed through inotify until
        // each file that arrives is whole. Its C: statfs, to know where inotify is blind.
        .target(
            name: "IngestDiscovery",
            dependencies: [
                "IngestCore", "IngestContainers", "IngestHashing", "CFileSystemShim",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        // What a run found and decided: each file's facts and verdicts, the run's report and
        // summary, counts of cameras, Takeout and iCloud files, uploads and stage timings, and the
        // kinds of destination. What reports read, without the pipeline.
        .target(
            name: "IngestOutcome", dependencies: ["IngestCore", "IngestDating", "IngestContainers", "IngestDiscovery"]),
        // Where photos go: the archive and the server behind one protocol (Destination), each
        // saying what it is; the file read and the photo prepared that they are given.
        .target(
            name: "IngestDestinations",
            dependencies: [
                "IngestCore", "IngestDating", "IngestContainers", "IngestDiscovery", "IngestImaging", "IngestArchive",
                "IngestTransport", "IngestOutcome",
            ]),
        // Stages 1 to 7 and the run: the walk's scheduling, the fan-out of a file to every event,
        // claims and hash sets, the limits, the tally and the catalog's note of each send.
        .target(
            name: "IngestPipeline",
            dependencies: [
                "IngestCore", "IngestDating", "IngestContainers", "IngestHashing", "IngestImaging", "IngestCatalog",
                "IngestDiscovery", "IngestOutcome", "IngestDestinations",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The run report as one HTML page, from a run or from the catalog.
        .target(
            name: "IngestReport",
            dependencies: [
                "IngestCore", "IngestDating", "IngestCatalog", "IngestArchive", "IngestHashing", "IngestImaging",
                "IngestOutcome", .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The page's HTML, CSS and script, compiled into the code: no bundle to install.
            resources: [
                .embedInCode("Templates/page.mustache"), .embedInCode("Templates/report.css"),
                .embedInCode("Templates/report.js"), .embedInCode("Templates/timeline.mustache"),
                .embedInCode("Templates/tile.mustache"),
            ]
        ),
        // The reference PhotoShare server, over the archive's store.
        .target(
            name: "IngestServer",
            dependencies: [
                "IngestCore", "IngestContainers", "IngestHashing", "IngestArchive", "IngestImaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "MultipartKit", package: "multipart-kit"),
            ]
        ),
        .executableTarget(
            name: "photoshare-server",
            dependencies: [
                "IngestCore", "IngestArchive", "IngestServer", "IngestImaging", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Sample files built byte by byte (EXIF, raw, zip, maker boxes), the shared corpus and the
        // test environment, and the parsers' fuzz target. No C library: the fuzz harness links it.
        .target(name: "IngestSamples", dependencies: ["IngestCore", "IngestDating", "IngestContainers"]),
        // What the tests stand on, IngestSamples included: a destination that records what it is
        // given (a stage or the pipeline without the disk), the reference server on a free port,
        // a bind mount, headless Chromium.
        .target(
            name: "IngestTesting",
            dependencies: ["IngestSamples", "IngestCore", "IngestOutcome", "IngestDestinations"]),
        // What `photoingest` does, callable in process: settings and their precedence, choosing
        // the destination, running, summarising, the exit status.
        .target(
            name: "IngestApp",
            dependencies: [
                "IngestCore", "IngestDating", "IngestHashing", "IngestDiscovery", "IngestOutcome", "IngestPipeline",
                "IngestDestinations", "IngestImaging",
                "IngestTransport", "IngestReport", "IngestZones", "IngestArchive", "IngestCatalog",
                .product(name: "Logging", package: "swift-log"),
                // --events FILE in CSV.
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The command line: commands and their option declarations only.
        .executableTarget(
            name: "photoingest",
            dependencies: [
                "IngestApp", "IngestCore", "IngestImaging", "IngestReport", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),

        .testTarget(name: "IngestCoreTests", dependencies: ["IngestCore", "IngestHashing", "IngestTesting"]),
        .testTarget(name: "IngestDatingTests", dependencies: ["IngestDating", "IngestCore", "IngestTesting"]),
        .testTarget(name: "IngestHashingTests", dependencies: ["IngestHashing", "IngestCore", "IngestTesting"]),
        // Their data files are read through #filePath, not bundled.
        .testTarget(
            name: "IngestContainersTests",
            dependencies: ["IngestDating", "IngestContainers", "IngestCore", "IngestTesting"],
            exclude: ["FuzzRegressions", "Sidecars"]),
        .testTarget(
            name: "IngestImagingTests",
            dependencies: ["IngestImaging", "IngestContainers", "IngestCore", "IngestTesting"]),
        .testTarget(
            name: "IngestCatalogTests",
            dependencies: ["IngestDating", "IngestCatalog", "IngestHashing", "IngestTesting"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "IngestZonesTests",
            dependencies: [
                "IngestDating",
                "IngestZones", "IngestCore", "IngestContainers", "IngestImaging", "IngestTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "IngestArchiveTests", dependencies: ["IngestArchive", "IngestHashing", "IngestTesting"]),
        .testTarget(
            name: "IngestTransportTests",
            dependencies: ["IngestTransport", "IngestCore", "IngestHashing", "IngestTesting"]),
        .testTarget(
            name: "IngestServerTests",
            dependencies: [
                "IngestServer", "IngestArchive", "IngestCore", "IngestHashing", "IngestTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(
            name: "IngestReportTests",
            dependencies: [
                "IngestDating",
                "IngestReport", "IngestOutcome", "IngestCore", "IngestHashing", "IngestCatalog", "IngestTesting",
            ]),
        .testTarget(
            name: "IngestDiscoveryTests",
            dependencies: [
                "IngestDiscovery", "IngestContainers", "IngestCore", "IngestHashing", "IngestTesting",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        .testTarget(
            name: "IngestOutcomeTests",
            dependencies: [
                "IngestDating", "IngestOutcome", "IngestDiscovery", "IngestContainers", "IngestCore", "IngestTesting",
            ]),
        .testTarget(
            name: "IngestPipelineTests",
            dependencies: [
                "IngestDating",
                "IngestPipeline", "IngestDiscovery", "IngestOutcome", "IngestContainers", "IngestHashing",
                "IngestImaging", "IngestDestinations",
                "IngestArchive", "IngestCatalog", "IngestTesting",
            ]),
        .testTarget(
            name: "IngestDestinationsTests",
            dependencies: ["IngestDestinations", "IngestCore", "IngestDating", "IngestImaging", "IngestTesting"]),
        .testTarget(
            name: "IngestAppTests",
            dependencies: [
                "IngestDating",
                "IngestApp", "IngestCore", "IngestDiscovery", "IngestPipeline", "IngestTesting",
                .product(name: "Configuration", package: "swift-configuration"),
            ]),
        // Runs the built command line, as a user would.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "IngestDating",
                "photoingest", "photoshare-server", "IngestCore", "IngestContainers", "IngestTesting", "IngestZones",
                // The --json document and the --report lines, read as the schema that writes them.
                "IngestApp", "IngestOutcome", "IngestPipeline", "IngestReport",
            ]),
    ]
)
