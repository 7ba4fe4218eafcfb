import Foundation
import IngestContainers
import IngestCore
import Testing

@Suite struct TakeoutJSONTests {
    /// A JSON in the form Takeout writes (2024): times as strings of seconds, `formatted` localized.
    static let sample = """
        {
          "title": "IMG_20190704_181512.jpg",
          "description": "",
          "imageViews": "12",
          "creationTime": {"timestamp": "1562300000", "formatted": "5 juil. 2019, 04:13:20 UTC"},
          "photoTakenTime": {"timestamp": "1562256912", "formatted": "4 juil. 2019, 16:15:12 UTC"},
          "geoData": {"latitude": 48.8583, "longitude": 2.2945, "altitude": 35.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
          "geoDataExif": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
          "people": [{"name": "A"}],
          "url": "https://photos.google.com/photo/AF1Qip",
          "googlePhotosOrigin": {"mobileUpload": {"deviceType": "ANDROID_PHONE"}},
          "trashed": true
        }
        """

    @Test("photoTakenTime, the first real position, the bin and the title are read; the rest passed over")
    func sample() throws {
        let fields = try TakeoutJSON.fields(in: Array(Self.sample.utf8)).get()
        #expect(fields.takenSeconds == 1_562_256_912)
        // geoDataExif is 0, 0 (no fix): geoData's is taken.
        #expect(fields.position == GeoPosition(latitude: 48.8583, longitude: 2.2945))
        #expect(fields.trashed)
        #expect(fields.title == "IMG_20190704_181512.jpg")
    }

    @Test("\"0\", an empty time and no time at all give none; numbers are read as Google's strings are")
    func missingTimes() throws {
        for text in [#"{"photoTakenTime": {"timestamp": "0"}}"#, #"{"photoTakenTime": {}}"#, #"{"title": "x"}"#] {
            let fields = try TakeoutJSON.fields(in: Array(text.utf8)).get()
            #expect(fields.takenSeconds == nil && !fields.trashed && fields.position == nil, "\(text)")
        }
        let number = try TakeoutJSON.fields(in: Array(#"{"photoTakenTime": {"timestamp": 1562256912}}"#.utf8)).get()
        #expect(number.takenSeconds == 1_562_256_912)
        let exif =
            #"{"geoDataExif": {"latitude": -33.86, "longitude": 151.21}, "geoData": {"latitude": 1, "longitude": 1}}"#
        #expect(
            try TakeoutJSON.fields(in: Array(exif.utf8)).get().position
                == GeoPosition(latitude: -33.86, longitude: 151.21))
    }

    @Test("What is not a Takeout JSON is refused with the reason")
    func refusals() {
        let cases: [(String, String)] = [
            ("", "empty"),
            ("not json", "not a JSON object"),
            ("{not json", "not JSON"),
            ("[1, 2]", "not a JSON object"),
            (
                #"{"photoTakenTime": {"timestamp": "yesterday"}}"#,
                "photoTakenTime.timestamp \"yesterday\" is not a time"
            ),
            (#"{"photoTakenTime": {"timestamp": "1e9"}}"#, "is not a time"),
            (#"{"trashed": "yes"}"#, "trashed is not of the type Takeout writes"),
            (#"{"photoTakenTime": {"timestamp": 1.5}}"#, "photoTakenTime.timestamp is not readable"),
        ]
        for (text, reason) in cases {
            guard case .failure(let refusal) = TakeoutJSON.fields(in: Array(text.utf8)) else {
                Issue.record("\(text) was read")
                continue
            }
            #expect(refusal.description.contains(reason), "\(text): \(refusal)")
        }
        let large = [UInt8](repeating: UInt8(ascii: " "), count: TakeoutJSON.sizeLimit + 1)
        #expect(TakeoutJSON.fields(in: large) == .failure(TakeoutJSON.Refusal(description: "larger than 1 MiB")))
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case .failure = TakeoutJSON.fields(in: Array(deep.utf8)) else {
            Issue.record("100,000 nested arrays were read")
            return
        }
    }
}
