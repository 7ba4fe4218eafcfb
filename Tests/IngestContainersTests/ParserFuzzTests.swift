import Foundation
import IngestContainers
import IngestCore
import IngestTesting
import Testing

/// The container walkers and EXIF reader under mutation: every input must come back (no crash,
/// no hang, no read outside the input). `scripts/fuzz` runs the same target under libFuzzer for
/// as long as asked; what it finds goes into `FuzzRegressions/`, which this suite replays.
@Suite struct ParserFuzzTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "FuzzRegressions")

    @Test("Every input kept from earlier fuzzing runs through the parsers")
    func regressions() throws {
        let inputs = TestEnvironment.files(under: Self.regressions)
        #expect(!inputs.isEmpty, "FuzzRegressions/ is empty")
        for input in inputs {
            let broken = ParserFuzzTarget.run([UInt8](try Data(contentsOf: input)))
            #expect(broken.isEmpty, "\(input.lastPathComponent): \(broken)")
        }
    }

    @Test("Mutated EXIF, JPEG, PNG, WebP and HEIF (PHOTOINGEST_FUZZ_ITERATIONS, default 50,000; PHOTOINGEST_FUZZ_SEED)")
    func mutations() {
        let environment = ProcessInfo.processInfo.environment
        let iterations = Int(environment["PHOTOINGEST_FUZZ_ITERATIONS"] ?? "") ?? 50_000
        let seed = UInt64(environment["PHOTOINGEST_FUZZ_SEED"] ?? "") ?? 0x5EED_0F_F022
        let seeds = ParserFuzzTarget.seeds(realCorpus: TestEnvironment.realCorpus)
        #expect(seeds.count > 10)
        var random = SplitMix64(seed: seed)
        var completed = 0
        var brokenInputs = 0
        for iteration in 0..<iterations {
            var input = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 4) { Mutation.apply(to: &input, using: &random) }
            let broken = ParserFuzzTarget.run(input)
            if !broken.isEmpty {
                brokenInputs += 1
                if brokenInputs <= 5 { Issue.record("seed \(seed), iteration \(iteration): \(broken)") }
            }
            completed += 1
        }
        // A crash or a hang would have ended the test process before this line: the inputs that
        // came back are counted, and so are those that broke an invariant.
        #expect(brokenInputs == 0, "\(brokenInputs) of \(iterations) inputs broke an invariant (seed \(seed))")
        ReliabilityFigure.record(
            "parser fuzzing (in-test mutations)",
            ["inputs": iterations, "seeds": seeds.count, "cameBack": completed, "brokeAnInvariant": brokenInputs])
    }
}

/// The mutations that break parsers: values at the edges written over offsets and counts, bit
/// flips, cuts, and repeated or spliced ranges.
enum Mutation {
    static let interesting: [UInt32] = [
        0, 1, 2, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE,
        0xFFFF_FFFF,
    ]

    static func apply(to bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = [UInt8(truncatingIfNeeded: random.next())]
            return
        }
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 6 {
        case 0:
            bytes[at] ^= 1 << UInt8(random.next() % 8)
        case 1:
            bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            // An edge value as a 16- or 32-bit number in either byte order: offsets, counts, lengths.
            let value = Self.interesting[Int(random.next() % UInt64(Self.interesting.count))]
            let width = random.next() % 2 == 0 ? 2 : 4
            let bigEndian = random.next() % 2 == 0
            for index in 0..<width where at + index < bytes.count {
                let shift = bigEndian ? (width - 1 - index) * 8 : index * 8
                bytes[at + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            }
        case 3:
            bytes.removeSubrange(at...)
        case 4:
            let length = min(bytes.count - at, Int(random.next() % 64) + 1)
            bytes.insert(contentsOf: bytes[at..<(at + length)], at: Int(random.next() % UInt64(bytes.count)))
        default:
            let length = min(bytes.count - at, Int(random.next() % 16) + 1)
            bytes.removeSubrange(at..<(at + length))
        }
    }
}
