import Foundation
import IngestCore
import IngestDating
import Testing

/// The line-up of a body's bursts with trusted ones, on simulated evenings: how often it finds a
/// wrong clock's offset, and how often it would suggest one for a true clock. The rates are
/// printed for docs/capture-time.md.
@Suite struct ClockSkewTests {
    /// One simulated evening: `moments` moments over four hours, each photographed by the trusted
    /// phones and by the body (each with probability 0.7) in bursts of 1-5 shots within seconds
    /// of the moment, plus a fifth of shots at random times; the body's clock `error` seconds off.
    static func evening(error: Double, moments: Int, using generator: inout SplitMix64) -> (
        body: [Double], trusted: [Double]
    ) {
        let start = 1_759_000_000.0
        let times = (0..<moments).map { _ in start + Double.random(in: 0..<14_400, using: &generator) }
        var body: [Double] = []
        var trusted: [Double] = []
        func burst(at moment: Double, into shots: inout [Double], shift: Double) {
            let lag = Double.random(in: -15...15, using: &generator)
            for shot in 0..<Int.random(in: 1...5, using: &generator) {
                shots.append(moment + lag + Double(shot) * 2 + shift)
            }
        }
        for moment in times {
            if Double.random(in: 0..<1, using: &generator) < 0.7 { burst(at: moment, into: &trusted, shift: 0) }
            if Double.random(in: 0..<1, using: &generator) < 0.7 { burst(at: moment, into: &body, shift: error) }
        }
        for _ in 0..<max(1, body.count / 5) {
            body.append(start + Double.random(in: 0..<14_400, using: &generator) + error)
        }
        for _ in 0..<max(1, trusted.count / 5) {
            trusted.append(start + Double.random(in: 0..<14_400, using: &generator))
        }
        return (body, trusted)
    }

    /// Out of `trials` evenings of `moments` moments: the wrong clocks lined up right and clearly,
    /// the true clocks given an offset, and the bodies of other moments given one.
    static func rates(moments: Int, trials: Int, using generator: inout SplitMix64) -> (
        found: Int, trueClocks: Int, unrelated: Int
    ) {
        var (found, trueClocks, unrelated) = (0, 0, 0)
        for _ in 0..<trials {
            let error =
                Double(Int.random(in: 600...7_200, using: &generator)) * (Bool.random(using: &generator) ? 1 : -1)
            let wrong = Self.evening(error: error, moments: moments, using: &generator)
            if let finding = ClockSkew.find(wrong.body, trusted: wrong.trusted), finding.isClear,
                abs(Double(finding.seconds) + error) <= 60
            {
                found += 1
            }
            let right = Self.evening(error: 0, moments: moments, using: &generator)
            if let finding = ClockSkew.find(right.body, trusted: right.trusted), finding.isClear,
                abs(finding.seconds) >= 60
            {
                trueClocks += 1
            }
            // A body that shot none of the trusted clocks' moments: any line-up is chance.
            let other = Self.evening(error: 0, moments: moments, using: &generator)
            if let finding = ClockSkew.find(other.body, trusted: right.trusted), finding.isClear { unrelated += 1 }
        }
        return (found, trueClocks, unrelated)
    }

    @Test("Bursts shifted by a wrong clock are lined up again within a minute; true clocks and chance are left alone")
    func findsWrongClocksAndLeavesTrueOnes() {
        var generator = SplitMix64(seed: 35)
        let trials = 100
        for moments in [12, 20, 30] {
            let (found, trueClocks, unrelated) = Self.rates(moments: moments, trials: trials, using: &generator)
            print(
                "ClockSkew, \(moments) moments: found \(found) of \(trials) wrong clocks; suggested an offset for "
                    + "\(trueClocks) of \(trials) true clocks and \(unrelated) of \(trials) bodies of other moments")
            #expect(Double(trueClocks) / Double(trials) <= 0.01)
            #expect(Double(unrelated) / Double(trials) <= 0.03)
            if moments >= 20 { #expect(Double(found) / Double(trials) >= 0.75) }
        }
    }

    @Test("Too few photos say nothing; a clear line-up gives the offset to the second")
    func smallCases() {
        #expect(ClockSkew.find([1, 2], trusted: [1, 2, 3]) == nil)
        let trusted: [Double] = [0, 2, 4, 1_130, 1_132, 2_990, 3_004, 5_410, 7_075, 9_860]
        let finding = ClockSkew.find(trusted.map { $0 + 3_750 }, trusted: trusted)
        #expect(finding?.seconds == -3_750)
        #expect(finding?.isClear == true)
    }
}
