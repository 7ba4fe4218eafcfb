import Testing

@testable import IngestArchive

@Suite struct AlignedBufferTests {
    @Test("The memory starts on the alignment asked for, and all of it can be written")
    func isAlignedAndWritable() {
        for alignment in [512, 4_096] {
            let buffer = AlignedBuffer(size: 1 << 20, alignment: alignment)
            #expect(Int(bitPattern: buffer.pointer) % alignment == 0)
            buffer.pointer.initializeMemory(as: UInt8.self, repeating: 7, count: 1 << 20)
            #expect(buffer.pointer.load(fromByteOffset: (1 << 20) - 1, as: UInt8.self) == 7)
        }
    }
}
