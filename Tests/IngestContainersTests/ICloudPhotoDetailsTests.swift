import Foundation
import IngestContainers
import Testing

@testable import IngestContainers

@Suite struct ICloudPhotoDetailsTests {
    /// A CSV in the form iCloud's export writes (its columns, its dates with no space after the comma).
    static let sample = """
        imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate
        IMG_0001.HEIC,ATMgsBpFMTNdVkyPh0mm2KdHPq/S,no,no,no,Saturday June 4,2022 12:11 PM GMT,3,Saturday June 4,2022 12:15 PM GMT
        "IMG_0002, copy.JPG",AX2,yes,no,no,"Monday January 1,2024 12:00 AM GMT",0,
        IMG_0003.MOV,AX3,no,no,no,not a date,0,\r
        IMG_0004.PNG,AX4,no,no,no,Tuesday February 29,2000 11:59 PM GMT,0,

        """

    @Test("Each name's time, UTC to the minute, 12 AM and PM as a clock reads them; a row with no date is counted")
    func sample() throws {
        let table = try ICloudPhotoDetails.table(in: Array(Self.sample.utf8)).get()
        // 2022-06-04T12:11:00Z, 2024-01-01T00:00:00Z, 2000-02-29T23:59:00Z.
        #expect(
            table.times == [
                "IMG_0001.HEIC": 1_654_344_660, "IMG_0002, copy.JPG": 1_704_067_200, "IMG_0004.PNG": 951_868_740,
            ])
        #expect(table.unreadRows == 1)
    }

    @Test("Dates in the forms seen, and what only looks like one")
    func dates() {
        #expect(ICloudPhotoDetails.seconds("Saturday June 4,2022 12:11 PM GMT") == 1_654_344_660)
        #expect(ICloudPhotoDetails.seconds("Saturday June 4, 2022 12:11\u{202F}PM GMT") == 1_654_344_660)
        #expect(ICloudPhotoDetails.seconds("June 4,2022 12:11:30 PM UTC") == 1_654_344_690)
        for text in [
            "", "Saturday June 31,2022 12:11 PM GMT", "Saturday June 4,2022 13:11 PM GMT",
            "Saturday June 4,2022 12:11 PM PDT",
            "Saturday Juin 4,2022 12:11 PM GMT", "2022-06-04T12:11:00Z", "Saturday June 4,2022 12:60 PM GMT",
        ] {
            #expect(ICloudPhotoDetails.seconds(text) == nil, "\(text)")
        }
    }

    @Test("A name listed twice with two times dates nothing; the same time twice is one; CSVs merge as one folder's")
    func ambiguous() throws {
        let header = "imgName,originalCreationDate\n"
        let first = try ICloudPhotoDetails.table(
            in: Array((header + "A.jpg,June 4,2022 12:11 PM GMT\nB.jpg,June 4,2022 12:11 PM GMT\n").utf8)
        ).get()
        let second = try ICloudPhotoDetails.table(
            in: Array(
                (header
                    + "A.jpg,June 5,2022 12:11 PM GMT\nB.jpg,June 4,2022 12:11 PM GMT\nC.jpg,June 6,2022 1:00 AM GMT")
                    .utf8)
        ).get()
        var folder = first
        folder.merge(second)
        #expect(folder.times.keys.sorted() == ["B.jpg", "C.jpg"])
        #expect(folder.ambiguous == ["A.jpg"])
        #expect(
            ICloudPhotoDetails.isDetails("Photo Details.csv") && ICloudPhotoDetails.isDetails("Photo Details-12.csv"))
        #expect(
            !ICloudPhotoDetails.isDetails("Photo Details-.csv") && !ICloudPhotoDetails.isDetails("Photo Detailsx.csv"))
    }

    @Test("What is not such a CSV is refused with the reason; hostile bytes never crash")
    func refusals() {
        #expect(ICloudPhotoDetails.table(in: []) == .failure(.init(description: "empty")))
        #expect(
            ICloudPhotoDetails.table(in: Array("name,date\nA.jpg,x\n".utf8))
                == .failure(.init(description: "no imgName and originalCreationDate columns")))
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "imgName", "originalCreationDate", ",", "\"", "\"\"", "\n", "\r", "\r\n", "June 4,2022 12:11 PM GMT", "é",
            "\u{0}",
        ]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            if case .success(let table) = ICloudPhotoDetails.table(in: Array(text.utf8)) {
                #expect(table.times.keys.allSatisfy { !$0.isEmpty && !$0.contains("/") })
            }
        }
    }
}
