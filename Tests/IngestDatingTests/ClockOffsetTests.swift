import Foundation
import IngestCore
import IngestDating
import Testing

@Suite struct ClockOffsetTests {
    @Test("An offset is a selector and a signed [+-]HH:MM[:SS]; anything else is refused")
    func parsing() {
        #expect(ClockOffset(parsing: "serial:012345=-01:02:30") == ClockOffset(.serial("012345"), seconds: -3_750))
        #expect(
            ClockOffset(parsing: "model:Canon EOS R6=+00:59") == ClockOffset(.model("Canon EOS R6"), seconds: 3_540))
        #expect(ClockOffset(parsing: "folder:/card/B=+1:00") == ClockOffset(.folder("/card/B"), seconds: 3_600))
        for bad in ["serial:1=01:00", "lens:x=+01:00", "serial:=+01:00", "model:X=+01:99", "serial:1", "+01:00"] {
            #expect(ClockOffset(parsing: bad) == nil, "\(bad)")
        }
        #expect(ClockOffset.format(-3_750) == "-01:02:30")
        #expect(ClockOffset.format(5) == "+00:00:05")
    }

    @Test("A serial names one body, a model every body of it, a folder every file under it")
    func applies() {
        let body = CameraBody(make: "Canon", model: "Canon EOS R6", serial: "222")
        #expect(ClockOffset(.serial("222"), seconds: 1).applies(to: body, path: "/x.jpg"))
        #expect(!ClockOffset(.serial("111"), seconds: 1).applies(to: body, path: "/x.jpg"))
        #expect(ClockOffset(.model("canon eos r6"), seconds: 1).applies(to: body, path: "/x.jpg"))
        #expect(ClockOffset(.folder("/card/B"), seconds: 1).applies(to: CameraBody(), path: "/card/B/x.jpg"))
        #expect(!ClockOffset(.folder("/card/B"), seconds: 1).applies(to: CameraBody(), path: "/card/BB/x.jpg"))
    }

    @Test("The most specific correction wins: a serial over a model over a folder, the nearer folder first")
    func mostSpecificWins() {
        let corrections = ClockCorrections(offsets: [
            ClockOffset(.folder("/card"), seconds: 1), ClockOffset(.folder("/card/B"), seconds: 2),
            ClockOffset(.model("Canon EOS R6"), seconds: 3), ClockOffset(.serial("222"), seconds: 4),
        ])
        let wall = LocalDateTime(year: 2025, month: 9, day: 27, hour: 20)
        let b = CameraBody(make: "Canon", model: "Canon EOS R6", serial: "222")
        #expect(corrections.seconds(for: b, path: "/card/B/x.jpg", wall: wall) == 4)
        #expect(corrections.seconds(for: CameraBody(model: "Canon EOS R6"), path: "/card/B/x.jpg", wall: wall) == 3)
        #expect(corrections.seconds(for: CameraBody(), path: "/card/B/x.jpg", wall: wall) == 2)
        #expect(corrections.seconds(for: CameraBody(), path: "/card/A/x.jpg", wall: wall) == 1)
        #expect(corrections.seconds(for: CameraBody(), path: "/elsewhere/x.jpg", wall: wall) == nil)
    }

    @Test("References: one gives its offset; two give the straight line through them, beyond them too")
    func referencesInterpolate() {
        let at = { (hour: Int) in LocalDateTime(year: 2025, month: 9, day: 27, hour: hour) }
        let one = [ClockReference(cameraClock: at(18), seconds: -3_750)]
        #expect(ClockReference.seconds(at: at(22), from: one) == -3_750)
        let two = one + [ClockReference(cameraClock: LocalDateTime(year: 2025, month: 9, day: 28), seconds: -3_790)]
        #expect(ClockReference.seconds(at: at(21), from: two) == -3_770)
        #expect(ClockReference.seconds(at: at(12), from: two) == -3_710)
        #expect(ClockReference.seconds(at: at(18), from: []) == nil)
        #expect(ClockReference.parse("a=b.jpg=2025-09-27T18:30:00Z")?.path == "a=b.jpg")
        #expect(ClockReference.parse("photo.jpg=yesterday") == nil)
    }

    @Test("A body is named by its model, its maker where the model does not say it, and its serial")
    func bodyDescription() {
        #expect(
            CameraBody(make: "Canon", model: "Canon EOS R6", serial: "012345").description == "Canon EOS R6 #012345")
        #expect(CameraBody(make: "NIKON CORPORATION", model: "NIKON D70").description == "NIKON D70")
        #expect(CameraBody(make: "Apple", model: "iPhone 15").description == "Apple iPhone 15")
        #expect(CameraBody().description == "an unknown camera")
    }
}

@Suite struct RecorrectedCaptureTests {
    @Test(
        "Another correction dates a capture again from what it holds: an offset time moves, an assumed zone is read again"
    )
    func recorrected() throws {
        let wall = LocalDateTime(year: 2025, month: 10, day: 26, hour: 3, minute: 30)
        let withOffset = CaptureTime(
            instant: wall.instant(offsetSeconds: 3_600), localTime: wall, offsetSeconds: 3_600, source: .exifOffset)
        let moved = try #require(withOffset.recorrected(to: -600))
        #expect(moved.instant == withOffset.instant.addingTimeInterval(-600))
        #expect(moved.clockOffset == -600 && moved.cameraTime == wall)
        // Berlin left summer time at 03:00 that night: 03:30 is +01:00, 02:30 the earlier +02:00.
        let assumed = CaptureTime(
            instant: wall.instant(offsetSeconds: 3_600), localTime: wall, offsetSeconds: 3_600,
            source: .exifAssumedZone,
            assumedZone: "Europe/Berlin")
        let hourBack = try #require(assumed.recorrected(to: -3_600))
        #expect(hourBack.offsetSeconds == 7_200)
        #expect(
            hourBack.instant
                == LocalDateTime(year: 2025, month: 10, day: 26, hour: 0, minute: 30).instant(offsetSeconds: 0))
        #expect(hourBack.recorrected(to: nil)?.instant == assumed.instant)
        let gps = CaptureTime(instant: wall.instant(offsetSeconds: 0), localTime: wall, source: .exifGPSPosition)
        #expect(gps.recorrected(to: 60) == nil)
    }
}
