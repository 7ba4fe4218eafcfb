import Foundation
import Testing

@testable import IngestDestinations

@Suite struct PreparedPhotoTests {
    @Test(
        "A Takeout title becomes a file name: unsafe characters replaced, the file's extension kept, 255 bytes at most")
    func titles() {
        #expect(
            PreparedPhoto.name(title: "Dinner at 8: the cake?.jpg", file: "Dinner at 8_ the c.jpg")
                == "Dinner at 8_ the cake_.jpg")
        // Google converted the HEIC: the file's extension is the truth.
        #expect(PreparedPhoto.name(title: "IMG_1234.HEIC", file: "IMG_1234.jpg") == "IMG_1234.jpg")
        #expect(PreparedPhoto.name(title: "IMG_1234.JPG", file: "IMG_1234.jpg") == "IMG_1234.JPG")
        #expect(PreparedPhoto.name(title: "a/b\\c\nd", file: "x.png") == "a_b_c_d.png")
        for empty in ["", "  ", ".", ".."] { #expect(PreparedPhoto.name(title: empty, file: "x.jpg") == "x.jpg") }
        let long = PreparedPhoto.name(title: String(repeating: "é", count: 400) + ".jpeg", file: "cut.jpeg")
        #expect(long.utf8.count <= 255 && long.hasSuffix("é.jpeg"))
        let noStem = PreparedPhoto.name(title: "." + String(repeating: "x", count: 1_000), file: "y")
        #expect(noStem.utf8.count <= 255)
    }
}
