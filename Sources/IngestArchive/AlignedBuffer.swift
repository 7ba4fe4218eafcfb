/// Memory aligned for `O_DIRECT`, freed when this goes away.
final class AlignedBuffer: @unchecked Sendable {
    // @unchecked: one writer at a time holds it (``UncachedWrite`` hands it out from its pool).
    let pointer: UnsafeMutableRawPointer

    init(size: Int, alignment: Int) {
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
    }

    deinit { self.pointer.deallocate() }
}
