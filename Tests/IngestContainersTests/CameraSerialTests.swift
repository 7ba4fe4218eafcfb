import Foundation
import IngestCore
import IngestTesting
import Testing

@testable import IngestContainers

/// The body's serial number, read as exiftool prints it: EXIF BodySerialNumber, then DNG's
/// CameraSerialNumber, the maker note's SerialNumber, and last the maker's internal number.
@Suite struct CameraSerialTests {
    /// exiftool's tags, in the order photoingest prefers them; the makers' own where it reads them.
    static let preferred = [
        "ExifIFD:SerialNumber", "IFD0:CameraSerialNumber", "Canon:SerialNumber", "Nikon:SerialNumber",
        "Olympus:SerialNumber", "Pentax:SerialNumber", "FujiFilm:InternalSerialNumber",
        "Panasonic:InternalSerialNumber", "Canon:InternalSerialNumber",
    ]

    @Test("Every photo and raw file of the shared corpora names the serial exiftool prints, or none")
    func agreesWithExiftool() throws {
        let roots = [TestEnvironment.realCorpus, TestEnvironment.mediaCorpus]
        let files = roots.flatMap { TestEnvironment.files(under: $0) }.filter {
            $0.lastPathComponent != "README.md" && !$0.path.contains("/broken/") && !$0.path.contains("/video/")
        }
        try #require(files.count > 100, "the shared corpora are missing")
        let result = try runProgram(
            "exiftool",
            ["-j", "-a", "-G1", "-SerialNumber", "-CameraSerialNumber", "-InternalSerialNumber"]
                + files.map(\.path))
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var oracle: [String: [String: Any]] = [:]
        for entry in entries { if let file = entry["SourceFile"] as? String { oracle[file] = entry } }
        var named = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            guard case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) else {
                continue
            }
            let ours = bytes.withUnsafeBytes { MediaIdentity(ExifLocator.exif(in: $0, kind: kind)).body.serial }
            let theirs = Self.preferred.lazy.compactMap { oracle[file.path]?[$0] }.first.map {
                "\($0)".trimmingCharacters(in: .whitespaces)
            }
            #expect(ours == theirs, "\(file.lastPathComponent): \(oracle[file.path] ?? [:])")
            if ours != nil { named += 1 }
        }
        #expect(named >= 12)
    }

    @Test("The makers' numbers are formatted as exiftool prints them")
    func formats() {
        #expect(MakerNote.canonSerial(12_345_678, model: "Canon EOS 5D") == "0012345678")
        #expect(MakerNote.canonSerial(12_345, model: "Canon EOS-1D Mark III") == "012345")
        #expect(MakerNote.canonSerial(0x0001_3039, model: "Canon EOS D30") == "000112345")
        #expect(
            MakerNote.fujifilmSerial("FPX20017035 592D31313034060427796060110384")
                == "FPX20017035 Y-1104 2006:04:27 796060110384")
        #expect(MakerNote.fujifilmSerial("not a serial") == "not a serial")
        #expect(MakerNote.panasonicSerial("F350807010058") == "(F35) 2008:07:01 no. 0058")
        #expect(MakerNote.panasonicSerial("12345") == "12345")
        #expect(MakerNote.nikonFormatted("NO= 1005a431   ") == "No= 1005a431")
        #expect(MakerNote.nikonFormatted("AUTO AF RAW") == "Auto AF RAW")
        #expect(MakerNote.nikonFormatted("BMW 123") == "BMW 123")
    }
}
