import FuzzerDriver
import IngestTesting

/// libFuzzer's entry point: one input through every parser of untrusted bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let broken = ParserFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: count))
    // A broken invariant must stop libFuzzer like a crash, so that it keeps the input.
    precondition(broken.isEmpty, broken.joined(separator: "; "))
    return 0
}

/// SwiftPM links an executable's `main` to `<target>_main`: hand the command line to libFuzzer.
@_cdecl("ParserFuzzer_main")
public func parserFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzOneInput(data, count) }
}
