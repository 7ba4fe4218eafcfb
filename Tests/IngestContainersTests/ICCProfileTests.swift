import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// The ICC reader over the real profiles of the shared corpus, extracted by exiftool.
@Suite struct ICCProfileTests {
    /// Every distinct embedded profile of the real corpus, by exiftool's description of it.
    static let profiles: Result<[String: [UInt8]], Error> = Result {
        var profiles: [String: [UInt8]] = [:]
        let folder = TemporaryFolder("icc")
        for url in TestEnvironment.files(under: TestEnvironment.realCorpus) where url.pathExtension != "md" {
            let description = try runProgram("exiftool", ["-s3", "-ICC_Profile:ProfileDescription", url.path]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !description.isEmpty, profiles[description] == nil else { continue }
            profiles[description] = Array(try Self.iccBytes(url, in: folder))
        }
        return profiles
    }

    /// The profile's bytes, as exiftool extracts them (binary, so through a file).
    static func iccBytes(_ url: URL, in folder: TemporaryFolder) throws -> Data {
        let out = folder.appending("profile.icc")
        let result = try runProgram("sh", ["-c", "exiftool -b -ICC_Profile \"$1\" > \"$2\"", "sh", url.path, out.path])
        guard result.status == 0 else { throw FixtureError("exiftool: \(result.stderr)") }
        return try Data(contentsOf: out)
    }

    func profile(_ description: String) throws -> ICCProfile? {
        let bytes = try #require(try Self.profiles.get()[description], "no '\(description)' profile in the real corpus")
        return bytes.withUnsafeBytes { ICCProfile($0) }
    }

    @Test(
        "sRGB profiles are told by their colorants and curves, whatever their name",
        arguments: ["sRGB IEC61966-2.1", "GIMP built-in sRGB"])
    func srgbProfiles(description: String) throws {
        let profile = try #require(try self.profile(description))
        #expect(profile.colourSpace == "RGB ")
        #expect(profile.isSRGB)
    }

    @Test(
        "Wide-gamut, camera and CMYK profiles are not sRGB, a P3 with sRGB's curve included",
        arguments: [
            "Display P3", "DCI-P3 D65 Gamut with sRGB Transfer", "Camera RGB Profile", "U.S. Web Coated (SWOP) v2",
        ])
    func otherProfiles(description: String) throws {
        let profile = try #require(try self.profile(description))
        #expect(!profile.isSRGB)
        if description.contains("SWOP") { #expect(profile.colourSpace == "CMYK") }
    }

    @Test("Bytes that are not a profile, or a profile cut short, are not taken for sRGB")
    func damagedProfiles() throws {
        #expect([UInt8](repeating: 0, count: 200).withUnsafeBytes { ICCProfile($0) } == nil)
        let srgb = try #require(try Self.profiles.get()["sRGB IEC61966-2.1"])
        for cut in [132, 200, srgb.count / 2] {
            let profile = Array(srgb.prefix(cut)).withUnsafeBytes { ICCProfile($0) }
            #expect(profile?.isSRGB != true, "cut at \(cut)")
        }
    }
}
