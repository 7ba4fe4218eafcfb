import IngestContainers
import IngestCore
import Testing

/// The one box walker: siblings in order, bounded however many a hostile file holds.
@Suite struct ISOBoxTests {
    /// `count` empty `free` boxes, then an `Exif` box holding four bytes.
    static func file(freeBoxes count: Int) -> [UInt8] {
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        return Array([[UInt8]](repeating: free, count: count).joined()) + [0, 0, 0, 12] + Array("Exif".utf8) + [
            1, 2, 3, 4,
        ]
    }

    @Test("A box after a hundred others is found where it lies")
    func findsAfterSiblings() {
        let bytes = Self.file(freeBoxes: 100)
        let box = bytes.withUnsafeBytes { ISOBox.find("Exif", in: ByteReader($0), range: 0..<$0.count) }
        #expect(box == ISOBox(type: "Exif", offset: 800, payload: 808..<812))
        #expect(bytes.withUnsafeBytes { ISOBox.children(in: ByteReader($0), range: 0..<$0.count).count } == 101)
    }

    @Test("A walk stops after ISOBox.siblingLimit boxes: one behind more is not looked for, the list is cut")
    func walksAreBounded() {
        let bytes = Self.file(freeBoxes: ISOBox.siblingLimit + 10)
        #expect(bytes.withUnsafeBytes { ISOBox.find("Exif", in: ByteReader($0), range: 0..<$0.count) } == nil)
        let children = bytes.withUnsafeBytes { ISOBox.children(in: ByteReader($0), range: 0..<$0.count) }
        #expect(children.count == ISOBox.siblingLimit && children.allSatisfy { $0.type == "free" })
    }
}
