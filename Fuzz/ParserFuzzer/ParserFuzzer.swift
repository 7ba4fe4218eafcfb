import Foundation
import FuzzerDriver
import IngestSamples

/// libFuzzer's entry point: one input through every parser of untrusted bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let broken = ParserFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: count))
    // A broken invariant must stop libFuzzer like a crash, so that it keeps the input.
    precondition(broken.isEmpty, broken.joined(separator: "; "))
    return 0
}

/// SwiftPM links an executable's `main` to `<target>_main`: hand the command line to libFuzzer,
/// except `--write-seeds FOLDER`, which writes the inputs the project builds as seeds and ends.
@_cdecl("ParserFuzzer_main")
public func parserFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if argc == 3, let flag = argv?[1], String(cString: flag) == "--write-seeds", let folder = argv?[2] {
        do {
            try ParserFuzzTarget.writeBuiltSeeds(to: URL(fileURLWithPath: String(cString: folder)))
            return 0
        } catch {
            print("ParserFuzzer: could not write the seeds: \(error)")
            return 1
        }
    }
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzOneInput(data, count) }
}
