import CFFmpegShim
import Foundation
import IngestCore
import Testing

@testable import IngestImaging

@Suite struct ContentInputTests {
    @Test("FFmpeg's seeks: from the start, the position and the end; the size when asked; none outside")
    func seeks() {
        let input = ContentInput(reader: MemoryContent(Array(0..<100)), size: 100)
        #expect(input.seek(to: 10, whence: SEEK_SET) == 10)
        #expect(input.seek(to: 5, whence: SEEK_CUR) == 15)
        #expect(input.seek(to: -20, whence: SEEK_END) == 80)
        #expect(input.seek(to: 0, whence: ingest_av_seek_size()) == 100)
        #expect(input.seek(to: -1, whence: SEEK_SET) == -1)
        #expect(input.seek(to: .max, whence: SEEK_END) == -1)
    }

    @Test("Reads go on from the position; at the end FFmpeg hears end of file, on a failure an I/O error")
    func reads() {
        let input = ContentInput(reader: MemoryContent(Array(0..<100)), size: 100)
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = input.seek(to: 90, whence: SEEK_SET)
        #expect(buffer.withUnsafeMutableBufferPointer { input.read(into: $0.baseAddress!, count: 64) } == 10)
        #expect(Array(buffer[..<10]) == Array(90..<100))
        #expect(
            buffer.withUnsafeMutableBufferPointer { input.read(into: $0.baseAddress!, count: 64) }
                == ingest_av_error_eof())
        let failing = ContentInput(reader: MemoryContent(Array(0..<100), failAt: 0), size: 100)
        #expect(buffer.withUnsafeMutableBufferPointer { failing.read(into: $0.baseAddress!, count: 64) } == -EIO)
        #expect(failing.error?.message == "the test's reader failed")
    }
}
