import Foundation
import IngestContainers
import IngestCore
import IngestDating
import IngestDiscovery
import Testing

@testable import IngestPipeline

/// Which files of a name group are pairs: decided by their metadata, never by the name alone.
@Suite struct PairingTests {
    static func member(
        _ path: String, _ kind: MediaKind, identifier: String? = nil, camera: String? = nil,
        local: LocalDateTime? = nil, source: CaptureSource = .exifOffset
    ) -> Pairing.Member {
        Pairing.Member(
            path: path, kind: kind,
            capture: CaptureTime(instant: Date(timeIntervalSince1970: 0), localTime: local, source: source),
            identity: MediaIdentity(contentIdentifier: identifier, camera: camera))
    }

    @Test("A Live Photo's still leads its clip when their content identifiers agree, and only then")
    func livePhoto() {
        let matched = Pairing.matches([
            Self.member("IMG_1.HEIC", .heic, identifier: "A"), Self.member("IMG_1.MOV", .quickTime, identifier: "A"),
        ])
        #expect(matched.map { [$0.lead, $0.follower] } == [[0, 1]])
        #expect(matched.first?.reason.contains("content identifier A") == true)
        // Same name, another shot: no pair; nor a clip with no identifier.
        #expect(
            Pairing.matches([
                Self.member("IMG_1.HEIC", .heic, identifier: "A"),
                Self.member("IMG_1.MOV", .quickTime, identifier: "B"),
            ]).isEmpty)
        #expect(Pairing.matches([Self.member("IMG_1.HEIC", .heic), Self.member("IMG_1.MOV", .quickTime)]).isEmpty)
    }

    @Test("A raw photo follows the JPEG of the same camera and second; another camera or second is no pair")
    func rawAndJPEG() {
        let second = LocalDateTime(year: 2025, month: 9, day: 27, hour: 21, minute: 10, second: 5)
        var later = second
        later.millisecond = 400
        let raw = Self.member("DSC_1.NEF", .nef, camera: "NIKON D70", local: second)
        #expect(
            Pairing.matches([raw, Self.member("DSC_1.JPG", .jpeg, camera: "NIKON D70", local: later)]).map(\.follower)
                == [0])
        #expect(Pairing.matches([raw, Self.member("DSC_1.JPG", .jpeg, camera: "NIKON D80", local: second)]).isEmpty)
        var next = second
        next.second = 6
        #expect(Pairing.matches([raw, Self.member("DSC_1.JPG", .jpeg, camera: "NIKON D70", local: next)]).isEmpty)
        // A time from the file's modification date is no evidence.
        #expect(
            Pairing.matches([
                Self.member("DSC_1.NEF", .nef, camera: "NIKON D70", local: second, source: .fileMTime),
                Self.member("DSC_1.JPG", .jpeg, camera: "NIKON D70", local: second, source: .fileMTime),
            ]).isEmpty)
    }

    @Test("Each file is in one pair at most")
    func onePairEach() {
        let matched = Pairing.matches([
            Self.member("IMG_1.HEIC", .heic, identifier: "A"), Self.member("IMG_1.MOV", .quickTime, identifier: "A"),
            Self.member("IMG_1.MP4", .mp4, identifier: "A"),
        ])
        #expect(matched.count == 1)
    }

    @Test("Files group by folder and name up to the extension, without case")
    func stems() {
        #expect(Discovery.stem(of: "/a/IMG_1.HEIC") == "/a/img_1")
        #expect(Discovery.stem(of: "/a/img_1.mov") == "/a/img_1")
        #expect(Discovery.stem(of: "/a/.hidden") == nil)
        #expect(Discovery.stem(of: "/a.b/README") == nil)
    }
}
