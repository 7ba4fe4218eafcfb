import Foundation
import IngestApp
import IngestCore
import IngestDating
import IngestPipeline
import IngestTesting
import Testing

/// Cameras whose clocks lie: each body known by its make, model and serial, and its clock
/// corrected by `--clock-offset`, through the built binary.
@Suite struct ClockOffsetRunTests {
    /// One body of the evening: its EXIF tags, and the offset its clock keeps from the true time.
    struct Body {
        var make: String
        var model: String
        var serial: String
        /// Seconds the body's clock is ahead of the true time.
        var fast: Int
        /// Whether it writes its offset (a phone) or leaves the zone to be assumed (a camera).
        var writesOffset: Bool
    }

    static let phone = Body(make: "Apple", model: "iPhone 15", serial: "", fast: 0, writesOffset: true)
    static let cameraA = Body(
        make: "Canon", model: "Canon EOS R6", serial: "031021000111", fast: 0, writesOffset: false)
    static let cameraB = Body(
        make: "Canon", model: "Canon EOS R6", serial: "031021000222", fast: 3_750, writesOffset: false)

    /// A real photo (the sample's bytes, retagged by exiftool) that `body` took at the true UTC
    /// `time`: its clock reads `time` plus the body's error (or `fast`, for a clock that drifts).
    @discardableResult
    static func photo(
        _ folder: TemporaryFolder, _ name: String, by body: Body, at time: String, fast: Int? = nil
    ) throws -> URL {
        let url = folder.appending(name)
        try FileManager.default.copyItem(
            at: TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg"), to: url)
        let clock = LocalDateTime(
            RFC3339.parse(time)!.addingTimeInterval(Double(fast ?? body.fast)), offsetSeconds: 0)
        let written = clock.description.replacingOccurrences(of: "-", with: ":").replacingOccurrences(
            of: "T", with: " ")
        var tags = [
            "EXIF:Make": body.make, "EXIF:Model": body.model, "EXIF:DateTimeOriginal": written,
            "EXIF:OffsetTimeOriginal": body.writesOffset ? "+00:00" : "", "EXIF:SerialNumber": body.serial,
        ]
        tags["EXIF:GPSLatitude"] = ""
        try Fixtures.write(tags, to: url)
        return url
    }

    static let window = ["--from", "2025-09-27T18:00:00Z", "--until", "2025-09-27T22:00:00Z", "--timezone", "UTC"]

    @Test(
        "A camera an hour fast loses the window's last hour; --clock-offset by its serial puts it back, to the second")
    func serialOffsetPutsTheLastHourBack() throws {
        let photos = TemporaryFolder("clock-photos")
        try Self.photo(photos, "phone-early.jpg", by: Self.phone, at: "2025-09-27T19:00:00Z")
        try Self.photo(photos, "phone-late.jpg", by: Self.phone, at: "2025-09-27T21:55:00Z")
        try Self.photo(photos, "a-early.jpg", by: Self.cameraA, at: "2025-09-27T19:00:05Z")
        try Self.photo(photos, "a-late.jpg", by: Self.cameraA, at: "2025-09-27T21:50:00Z")
        try Self.photo(photos, "b-early.jpg", by: Self.cameraB, at: "2025-09-27T19:00:10Z")
        try Self.photo(photos, "b-late.jpg", by: Self.cameraB, at: "2025-09-27T21:55:00Z")

        let cli = CommandLine("clock")
        let before = try cli.ingest([photos.url], Self.window)
        #expect(before.status == 0, "\(before.result.stderr)")
        #expect(before.entry(named: "b-late.jpg")?.status == .outside)
        #expect(before.entry(named: "b-late.jpg")?.captureTime == "2025-09-27T22:57:30Z")
        let camera = before.entry(named: "b-late.jpg")?.camera
        #expect(camera?.make == "Canon" && camera?.model == "Canon EOS R6" && camera?.serial == "031021000222")
        #expect(before.entry(named: "phone-late.jpg")?.camera?.serial == nil)
        #expect(before.entry(named: "b-late.jpg")?.clockOffset == nil)

        // An offset that leaves the photo outside dates it again from the catalog: nothing is read.
        let further = try cli.ingest([photos.url], Self.window + ["--clock-offset", "serial:031021000222=+01:00"])
        #expect(further.entry(named: "b-late.jpg")?.status == .outside)
        #expect(further.entry(named: "b-late.jpg")?.captureTime == "2025-09-27T23:57:30Z")
        #expect(further.summary?.event?.bytes == 0)

        // A dry run says what the offset would change, and changes nothing.
        let offset = ["--clock-offset", "serial:031021000222=-01:02:30"]
        let dry = try cli.ingest([photos.url], Self.window + offset + ["--dry-run"])
        #expect(dry.entry(named: "b-late.jpg")?.status == .uploaded && dry.entry(named: "b-late.jpg")?.dryRun == true)
        #expect(dry.summary?.event?.summary == "1 Would store")

        // The same catalog, now with B's offset: the photo it left outside is dated again and stored.
        let after = try cli.ingest([photos.url], Self.window + offset)
        #expect(after.status == 0, "\(after.result.stderr)")
        let late = try #require(after.entry(named: "b-late.jpg"))
        #expect(late.status == .uploaded)
        #expect(late.captureTime == "2025-09-27T21:55:00Z")
        #expect(late.captureSource == "exif-assumed-zone+clock-offset")
        #expect(late.clockOffset == "-01:02:30" && late.cameraTime == "2025-09-27T22:57:30")
        #expect(after.entry(named: "a-late.jpg")?.status == .skipped, "A's photos are done and keep their time")

        // A fresh run with the offset dates every photo of B right to the second, and A's as written.
        let fresh = try CommandLine("clock-fresh").ingest([photos.url], Self.window + offset)
        #expect(fresh.entry(named: "b-early.jpg")?.captureTime == "2025-09-27T19:00:10Z")
        #expect(fresh.entry(named: "b-late.jpg")?.captureTime == "2025-09-27T21:55:00Z")
        #expect(fresh.entry(named: "a-late.jpg")?.captureTime == "2025-09-27T21:50:00Z")
        #expect(fresh.entry(named: "a-late.jpg")?.clockOffset == nil)
        #expect(fresh.count("stored") == 6)

        // A server's events take the corrected times alike.
        let server = try ReferenceServer()
        let party = try server.addEvent(name: "Party", start: "2025-09-27T18:00:00Z", end: "2025-09-27T22:00:00Z")
        let uploaded = try CommandLine("clock-server").ingest(
            [photos.url], ["--server", server.url, "--timezone", "UTC"] + offset,
            environment: ["PHOTOINGEST_TOKEN": try server.token()])
        #expect(uploaded.status == 0, "\(uploaded.result.stderr)")
        #expect(uploaded.entry(named: "b-late.jpg")?.status == .uploaded)
        #expect(try server.held(inEvent: party).count == 6)

        // A model's offset reaches both bodies of the model; B's serial wins over it.
        let model = try CommandLine("clock-model").ingest(
            [photos.url], Self.window + offset + ["--clock-offset", "model:canon eos r6=+00:00:05"])
        #expect(model.entry(named: "a-early.jpg")?.captureTime == "2025-09-27T19:00:10Z")
        #expect(model.entry(named: "b-early.jpg")?.captureTime == "2025-09-27T19:00:10Z")
    }

    @Test("A reference shot corrects its body; two of a drifting clock give each photo between its own offset")
    func referencesAndDrift() throws {
        let photos = TemporaryFolder("clock-reference-photos")
        try Self.photo(photos, "a-late.jpg", by: Self.cameraA, at: "2025-09-27T21:50:00Z")
        try Self.photo(photos, "b-late.jpg", by: Self.cameraB, at: "2025-09-27T21:55:00Z")
        let shot = try Self.photo(photos, "b-reference.jpg", by: Self.cameraB, at: "2025-09-27T18:30:00Z")
        let run = try CommandLine("clock-reference").ingest(
            [photos.url], Self.window + ["--clock-reference", "\(shot.path)=2025-09-27T18:30:00Z"])
        #expect(run.status == 0, "\(run.result.stderr)")
        #expect(run.entry(named: "b-late.jpg")?.captureTime == "2025-09-27T21:55:00Z")
        #expect(run.entry(named: "b-late.jpg")?.clockOffset == "-01:02:30")
        #expect(run.entry(named: "b-reference.jpg")?.captureTime == "2025-09-27T18:30:00Z")
        #expect(run.entry(named: "a-late.jpg")?.clockOffset == nil)
        #expect(run.result.stderr.contains("its times get -01:02:30"), "\(run.result.stderr)")

        // A clock 1 h 02 min 30 s fast at 18:00 and 40 s more six hours later.
        let drifting = Body(
            make: "NIKON CORPORATION", model: "NIKON Z 6", serial: "6001234", fast: 0, writesOffset: false)
        let folder = TemporaryFolder("clock-drift-photos")
        let first = try Self.photo(folder, "ref-1.jpg", by: drifting, at: "2025-09-27T18:00:00Z", fast: 3_750)
        let second = try Self.photo(folder, "ref-2.jpg", by: drifting, at: "2025-09-28T00:00:00Z", fast: 3_790)
        try Self.photo(folder, "quarter.jpg", by: drifting, at: "2025-09-27T19:30:00Z", fast: 3_760)
        try Self.photo(folder, "half.jpg", by: drifting, at: "2025-09-27T21:00:00Z", fast: 3_770)
        let drift = try CommandLine("clock-drift").ingest(
            [folder.url],
            [
                "--timezone", "UTC", "--clock-reference", "\(first.path)=2025-09-27T18:00:00Z", "--clock-reference",
                "\(second.path)=2025-09-28T00:00:00Z",
            ])
        #expect(drift.status == 0, "\(drift.result.stderr)")
        #expect(drift.entry(named: "quarter.jpg")?.captureTime == "2025-09-27T19:30:00Z")
        #expect(drift.entry(named: "quarter.jpg")?.clockOffset == "-01:02:40")
        #expect(drift.entry(named: "half.jpg")?.captureTime == "2025-09-27T21:00:00Z")
        #expect(drift.entry(named: "ref-2.jpg")?.captureTime == "2025-09-28T00:00:00Z")
    }

    /// An evening of `moments` moments, each shot by every body in a burst of three: real photos,
    /// tagged by one exiftool for all, each body's clock off by its error.
    static func evening(_ folder: TemporaryFolder, bodies: [(String, Body)], moments: Int) throws {
        var generator = SplitMix64(seed: 2025)
        let start = RFC3339.parse("2025-09-27T18:05:00Z")!
        let sample = TestEnvironment.repository.appendingPathComponent("samples/IMG_0001.jpg")
        var arguments: [String] = []
        for moment in 0..<moments {
            let when = start.addingTimeInterval(Double(moment) * 840 + Double.random(in: 0..<300, using: &generator))
            for (name, body) in bodies {
                let lag = Double.random(in: -10...10, using: &generator)
                for shot in 0..<3 {
                    let url = folder.appending("\(name)-\(moment)-\(shot).jpg")
                    try FileManager.default.copyItem(at: sample, to: url)
                    let clock = LocalDateTime(
                        when.addingTimeInterval(lag + Double(shot * 2 + body.fast)), offsetSeconds: 0)
                    let written = clock.description.prefix(19).replacingOccurrences(of: "-", with: ":")
                        .replacingOccurrences(of: "T", with: " ")
                    arguments += [
                        "-overwrite_original", "-EXIF:Make=\(body.make)", "-EXIF:Model=\(body.model)",
                        "-EXIF:SerialNumber=\(body.serial)", "-EXIF:DateTimeOriginal=\(written)",
                        "-EXIF:OffsetTimeOriginal=\(body.writesOffset ? "+00:00" : "")", url.path, "-execute",
                    ]
                }
            }
        }
        let argfile = folder.appending("exiftool.args")
        try Data(arguments.joined(separator: "\n").utf8).write(to: argfile)
        let result = try runProgram("exiftool", ["-q", "-@", argfile.path])
        try FileManager.default.removeItem(at: argfile)
        guard result.status == 0 else { throw FixtureError("exiftool: \(result.stderr)") }
    }

    @Test("Without an offset, the run finds camera B's clock 1 h 02 min 30 s fast from the bursts, and A's right")
    func suggestsTheOffsetFromTheBursts() throws {
        let photos = TemporaryFolder("clock-evening")
        try Self.evening(
            photos, bodies: [("phone", Self.phone), ("a", Self.cameraA), ("b", Self.cameraB)], moments: 16)
        let cli = CommandLine("clock-evening")
        let page = cli.folder.appending("page.html")
        let run = try cli.ingest([photos.url], Self.window + ["--html", page.path])
        #expect(run.status == 0, "\(run.result.stderr.suffix(2_000))")
        let cameras = try #require(run.summary?.cameras)
        let b = try #require(cameras.first { $0.serial == Self.cameraB.serial })
        let suggested = try #require(b.suggestedClockOffset.flatMap(ClockOffset.seconds), "\(b)")
        #expect(abs(suggested + 3_750) <= 60, "\(b)")
        #expect(b.outside > 0 && b.files == 48)
        let a = try #require(cameras.first { $0.serial == Self.cameraA.serial })
        #expect(a.suggestedClockOffset == nil, "\(a)")
        #expect(a.basis?.hasPrefix("its clock agrees with the trusted ones") == true, "\(a)")
        let phone = try #require(cameras.first { $0.model == Self.phone.model })
        #expect(phone.suggestedClockOffset == nil && phone.serial == nil)
        #expect(
            run.result.stdout.contains("Clock: Canon EOS R6 #031021000222 looks 1 h 02 min")
                || run.result.stderr.contains("Clock: Canon EOS R6 #031021000222 looks 1 h 02 min"),
            "\(run.result.stderr.suffix(2_000))")
        #expect(run.result.stderr.contains("to correct it: --clock-offset 'serial:031021000222=-01:0"))
        // The page draws a row per camera, and says the suggestion beside it.
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("one row per camera"))
        for body in ["Apple iPhone 15", "Canon EOS R6 #031021000111", "Canon EOS R6 #031021000222"] {
            #expect(html.contains(">\(body)</text>"), "no row for \(body)")
        }
        #expect(html.contains("Clock: Canon EOS R6 #031021000222 looks 1 h 02 min"))
        // Drawn again from the catalog, the page says it still.
        let again = cli.folder.appending("again.html")
        let report = try cli.run(["report", cli.catalog.path, "--html", again.path])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(
            try String(contentsOf: again, encoding: .utf8).contains(
                "Clock: Canon EOS R6 #031021000222 looks 1 h 02 min"))
    }

    @Test("A clock offset that is no selector and offset is refused, naming where it was given")
    func badOffsetsAreRefused() throws {
        let cli = CommandLine("clock-bad")
        for value in ["serial:1=01:00", "lens:x=+01:00", "serial:=+01:00", "model:X=+01:99"] {
            let run = try cli.run(["run", ".", "--clock-offset", value])
            #expect(run.status == 2)
            #expect(run.stderr.contains("--clock-offset '\(value)' is not serial:<serial>="), "\(run.stderr)")
        }
        let variable = try cli.run(["run", "."], environment: ["PHOTOINGEST_CLOCK_OFFSET": "folder:x=1"])
        #expect(variable.stderr.contains("PHOTOINGEST_CLOCK_OFFSET 'folder:x=1'"), "\(variable.stderr)")
    }
}
