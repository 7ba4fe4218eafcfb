import IngestContainers
import IngestCore
import Testing

@Suite struct MovieBoxCollectorTests {
    /// A box: 32-bit size (or 1 and a 64-bit one), type, contents.
    func box(_ type: String, _ contents: [UInt8], large: Bool = false) -> [UInt8] {
        let size = contents.count + (large ? 16 : 8)
        let be = { (value: UInt64, width: Int) in
            (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64((width - 1 - $0) * 8)) }
        }
        return (large ? be(1, 4) : be(UInt64(size), 4)) + Array(type.utf8) + (large ? be(UInt64(size), 8) : [])
            + contents
    }

    /// Feeds `file` in chunks of `step` bytes, as the read stage does with its buffer.
    func collect(_ file: [UInt8], step: Int) -> MovieBoxCollector {
        var collector = MovieBoxCollector(fileSize: UInt64(file.count))
        var offset = 0
        while offset < file.count {
            let end = min(file.count, offset + step)
            file[offset..<end].withUnsafeBytes { collector.consume($0, at: UInt64(offset)) }
            offset = end
        }
        return collector
    }

    @Test(
        "moov is kept wherever it sits, after a large mdat (64-bit size) too, whatever the chunk size",
        arguments: [1, 5, 4_096, 1 << 20])
    func keepsTheMovieBoxWhereverItIs(step: Int) {
        let movie = self.box("mvhd", [UInt8](repeating: 7, count: 100)) + self.box("trak", [1, 2, 3])
        let ftyp = self.box("ftyp", Array("isom\u{0}\u{0}\u{2}\u{0}isommp41".utf8))
        let mdat = [UInt8](repeating: 0xAB, count: 300_000)
        for file in [
            ftyp + self.box("mdat", mdat) + self.box("moov", movie),
            ftyp + self.box("moov", movie) + self.box("mdat", mdat),
            ftyp + self.box("mdat", mdat, large: true) + self.box("free", []) + self.box("moov", movie),
        ] {
            let collector = self.collect(file, step: step)
            #expect(collector.isComplete)
            #expect(collector.problem == nil)
            #expect(collector.movie == movie)
        }
    }

    @Test("A box that passes the file's end, or a moov over the limit, ends the walk with the reason")
    func refusesWhatDoesNotFit() {
        let cut = self.box("ftyp", Array("isom".utf8)) + [0, 0, 0x10, 0] + Array("mdat".utf8) + [1, 2, 3]
        let collector = self.collect(cut, step: 4_096)
        #expect(!collector.isComplete)
        #expect(collector.problem?.contains("does not fit") == true)

        // A moov header claiming 100 MB in a file that says it is that large: refused from its header.
        var huge = MovieBoxCollector(fileSize: 200 << 20)
        let header: [UInt8] = [0x06, 0x40, 0x00, 0x00] + Array("moov".utf8)
        header.withUnsafeBytes { huge.consume($0, at: 0) }
        #expect(huge.problem?.contains("over the limit") == true)
        #expect(huge.movie.isEmpty)
    }
}

extension MovieBoxCollectorTests {
    @Test("A meta beside moov is kept, before it or after it; only the first, and none over the limit")
    func keepsTheMetaBox() {
        let movie = self.box("moov", self.box("mvhd", [UInt8](repeating: 7, count: 100)))
        let mdat = self.box("mdat", [UInt8](repeating: 0xAB, count: 10_000))
        let first = [0, 0, 0, 0] + self.box("xml ", Array("<NonRealTimeMeta/>".utf8))
        let second = [0, 0, 0, 0] + self.box("xml ", Array("<Other/>".utf8))
        let large = [UInt8](repeating: 1, count: MovieBoxCollector.metadataLimit + 1)
        for step in [1, 7, 4_096] {
            #expect(self.collect(mdat + movie + self.box("meta", first), step: step).metadata == first)
            #expect(self.collect(self.box("meta", first) + mdat + movie, step: step).metadata == first)
            #expect(
                self.collect(movie + self.box("meta", first) + self.box("meta", second), step: step).metadata == first)
            let passed = self.collect(movie + self.box("meta", large) + self.box("meta", second), step: step)
            #expect(passed.metadata.isEmpty && passed.isComplete && passed.problem == nil)
        }
        // A meta the file ends in the middle of is not kept.
        var cut = self.collect(movie + self.box("meta", first), step: 3)
        #expect(cut.metadata == first)
        let header = self.box("meta", first)
        cut = MovieBoxCollector(fileSize: UInt64(movie.count + header.count))
        (movie + header.dropLast(5)).withUnsafeBytes { cut.consume($0, at: 0) }
        #expect(cut.isComplete && cut.metadata.isEmpty)
    }
}
