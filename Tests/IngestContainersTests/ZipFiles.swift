import Foundation
import IngestContainers
import IngestTesting

/// Zip files for the zip reader's tests: read from memory, as the pipeline reads them from a file.
enum ZipFiles {
    /// The entries of the zip `bytes`.
    static func entries(_ bytes: [UInt8]) throws(ZipError) -> [ZipEntry] {
        try ZipDirectory.entries(size: UInt64(bytes.count)) { offset, count throws(ZipError) -> [UInt8] in
            guard offset <= UInt64(bytes.count), count <= bytes.count - Int(offset) else {
                throw ZipError("past the end")
            }
            return Array(bytes[Int(offset)..<Int(offset) + count])
        }
    }

    /// Reads the zip `bytes` as the pipeline reads a zip file.
    static func reader(_ bytes: [UInt8]) -> ZipEntryStream.Reader {
        { offset, buffer in
            guard offset < UInt64(bytes.count) else { return 0 }
            let count = min(buffer.count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[Int(offset)..<Int(offset) + count]))
            }
            return count
        }
    }

    /// The content of `entry` of the zip `bytes`, read `chunk` bytes at a time.
    static func content(_ entry: ZipEntry, in bytes: [UInt8], chunk: Int = 4_096) throws(ZipError) -> [UInt8] {
        let stream = try ZipEntryStream(entry: entry, fileSize: UInt64(bytes.count), read: Self.reader(bytes))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let got = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(ZipError) -> Int in try stream.read(into: raw) }
            }.get()
            if got == 0 { return out }
            out += buffer[..<got]
        }
    }

    /// The content of `entry` of the zip `bytes`, read whole.
    static func whole(_ entry: ZipEntry, in bytes: [UInt8]) throws(ZipError) -> [UInt8] {
        try ZipEntryStream.whole(entry, fileSize: UInt64(bytes.count), read: Self.reader(bytes))
    }

    /// A zip written by Python's zipfile (real deflate), of `files` (name, content), in `folder`.
    static func python(_ files: [(String, [UInt8])], zip64: Bool = false, in folder: TemporaryFolder) throws -> [UInt8]
    {
        let inputs = folder.appending("inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for (index, file) in files.enumerated() {
            try Data(file.1).write(to: inputs.appendingPathComponent("\(index)"))
        }
        let names = files.map(\.0)
        let target = folder.appending("python-\(UUID().uuidString).zip")
        let script = """
            import json, sys, zipfile
            names = json.loads(sys.argv[3])
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
                for i, name in enumerate(names):
                    with open(sys.argv[1] + "/" + str(i), "rb") as f, z.open(name, "w", force_zip64=\(zip64 ? "True" : "False")) as out:
                        out.write(f.read())
            """
        let list = String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
        try Fixtures.check(runProgram("python3", ["-c", script, inputs.path, target.path, list]))
        return Array(try Data(contentsOf: target))
    }
}
