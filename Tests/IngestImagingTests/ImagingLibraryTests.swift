import Foundation
import IngestTesting
import Testing

@testable import IngestImaging

@Suite struct ImagingLibraryTests {
    let folder = TemporaryFolder("imaging-library")

    init() throws {
        try ImagingLibrary.bootstrap()
    }

    @Test("libvips 8.14's ORC compiles and frees go through photoingest's lock (issue 32)")
    func orcCallsAreSerialised() throws {
        // A resize of 8-bit pixels is one libvips before 8.15 builds with ORC. Later ones use
        // Highway where they were built with it, ORC otherwise: nothing to expect of them.
        let version = ImagingLibrary.version
        let photo = Array(try Data(contentsOf: try Fixtures.jpeg(in: self.folder, width: 900, height: 600)))
        let before = ImagingLibrary.serializedORCCalls
        _ = try photo.withUnsafeBytes { try Thumbnailer(largeEdge: 300, smallEdge: 120).thumbnails(of: $0) }
        if version.major == 8 && version.minor < 15 {
            #expect(ImagingLibrary.serializedORCCalls > before)
        }
    }

    @Test("Thumbnails made on eight threads at once are byte for byte those made one at a time")
    func concurrentThumbnailsMatchSerialOnes() throws {
        let sizes = [(640, 480), (480, 640), (900, 300), (512, 512)]
        let photos = try sizes.enumerated().map { index, size in
            Array(
                try Data(
                    contentsOf: try Fixtures.jpeg(
                        in: self.folder, name: "photo-\(index).jpg", width: size.0, height: size.1)))
        }
        let thumbnailer = Thumbnailer(largeEdge: 300, smallEdge: 120)
        let serial = try photos.map { photo in try photo.withUnsafeBytes { try thumbnailer.thumbnails(of: $0) } }
        let rounds = 40
        let made = Results(count: 8 * rounds)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<rounds {
                let index = (thread + round) % photos.count
                made.set(
                    thread * rounds + round, index,
                    photos[index].withUnsafeBytes { try? thumbnailer.thumbnails(of: $0) })
            }
        }
        for (index, thumbnails) in made.values {
            #expect(thumbnails == serial[index])
        }
        #expect(made.values.count == 8 * rounds)
    }
}

/// What the threads made, each in its own slot.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [(Int, Thumbnails?)?]

    init(count: Int) { self.slots = Array(repeating: nil, count: count) }

    func set(_ slot: Int, _ index: Int, _ thumbnails: Thumbnails?) {
        self.lock.withLock { self.slots[slot] = (index, thumbnails) }
    }

    var values: [(Int, Thumbnails?)] { self.lock.withLock { self.slots.compactMap { $0 } } }
}
