import Foundation
import IngestContainers
import IngestCore
import IngestDating

/// Every parser photoingest runs over a file's untrusted bytes, run over one input.
///
/// - the media sniffer and its raw refinement, and the judge of whether a file is whole;
/// - the container walkers (JPEG, PNG, WebP, HEIF, JPEG XL, CR3, RAF, and the bytes taken as a
///   TIFF-based file);
/// - the TIFF walker and EXIF reader, maker notes too;
/// - the raw preview finder and JPEG frame reader;
/// - the video box walkers (the streaming `moov` collector and the `moov` reader);
/// - the ICC profile reader, the capture-time rules, and the dates in file names;
/// - the XMP sidecar reader and its values' parser;
/// - the zip directory reader and the zip entry stream (stored and deflated);
/// - the Google Takeout JSON reader and the pairing of a folder's names with their JSONs;
/// - the iCloud export's `Photo Details.csv` reader.
///
/// A crash, a hang or a broken invariant here is a finding. Shared by the fuzz tests and the
/// libFuzzer harness in `Fuzz/`.
public enum ParserFuzzTarget {
    /// Answers one zone everywhere: enough for the resolver to parse every GPS position it meets.
    struct OneZone: ZoneMap {
        func zoneName(at position: GeoPosition) -> String? { "Asia/Kathmandu" }
    }

    static let resolver = CaptureTimeResolver(
        assumedZone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_800_000_000),
        zones: OneZone())
    static let modified = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs one input through every parser and returns the invariants it broke (none, for a
    /// parser that is right). A crash or a hang is a finding too, but ends the process.
    @discardableResult
    public static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var broken: [String] = []
        if case .supported(let kind) = MediaSniffer.sniff(bytes.prefix(MediaSniffer.headerLength)) {
            _ = MediaSniffer.refine(kind, bytes)
        }
        // The watch's judge of a file its writer left open: whole, cut, or not its to say.
        _ = Completeness.of(bytes)
        // A view found is into the input, never past it.
        func inside(_ view: UnsafeRawBufferPointer) -> Bool {
            guard view.count > 0 else { return true }
            guard let start = bytes.baseAddress, let base = view.baseAddress else { return false }
            return base >= UnsafeRawPointer(start) && base + view.count <= UnsafeRawPointer(start) + bytes.count
        }
        // A walk that kept an entry whose value lies outside the bytes walked, or too many directories.
        func misplaced(_ tiff: TIFFStructure) -> Bool {
            tiff.directories.count > TIFFStructure.directoryLimit
                || tiff.directories.contains { directory in
                    directory.entries.contains { entry in
                        TIFFStructure.size(of: entry.type).map {
                            entry.valueOffset + entry.count * $0 > tiff.reader.count
                        }
                            ?? true
                    }
                }
        }
        // A maker note as the input, after the 8 bytes a TIFF header would take (it is reached
        // through an EXIF IFD otherwise), in a file of either byte order, of a camera whose notes
        // have a header and of those (Canon, Sony) whose notes have none; its serials read as well.
        for bigEndian in [false, true] {
            for make in [nil, "CANON", "SONY"] {
                guard
                    let note = MakerNote(
                        at: 8, count: bytes.count - 8, in: ByteReader(bytes), bigEndian: bigEndian, origin: 0,
                        make: make)
                else { continue }
                if misplaced(note.structure) { broken.append("a maker note's entry lies outside the input") }
                _ = (
                    note.serial(model: "Canon EOS D30"), note.serial(model: nil), note.internalSerial(model: "ILCE-7M3")
                )
                _ = (
                    note.internalSerial(model: "SLT-A77"), note.internalSerial(model: "ILCE-1"),
                    note.internalSerial(model: nil)
                )
            }
        }
        for kind in MediaKind.allCases {
            let structures = ExifLocator.exif(in: bytes, kind: kind)
            _ = MediaIdentity(structures)
            _ = MotionPhoto.property(in: bytes, kind: kind)
            for tiff in structures {
                if !inside(tiff.reader.bytes) { broken.append("the EXIF found for \(kind) lies outside the input") }
                if misplaced(tiff) { broken.append("a TIFF entry lies outside its structure (\(kind))") }
                if let note = MakerNote(in: tiff), misplaced(note.structure) {
                    broken.append("a maker note's entry lies outside its structure (\(kind))")
                }
            }
            if let preview = EmbeddedPreview.largest(in: bytes, kind: kind) {
                if preview.range.lowerBound < 0 || preview.range.upperBound > bytes.count {
                    broken.append("the \(kind) preview lies outside the input")
                } else if JPEGFrame(UnsafeRawBufferPointer(rebasing: bytes[preview.range])) != preview.frame {
                    broken.append("the \(kind) preview's frame is not the one at its range")
                }
            }
            let fields = MetadataReader.timeFields(in: bytes, kind: kind)
            let capture = Self.resolver.resolve(fields, fileModified: Self.modified)
            if !capture.instant.timeIntervalSince1970.isFinite {
                broken.append("a capture time that is not a number (\(kind))")
            }
        }
        broken += Self.video(bytes)
        broken += Self.fileName(bytes)
        broken += Self.sidecar(bytes)
        broken += Self.zip(bytes)
        broken += Self.takeout(bytes)
        // The profile reader judges only a whole profile: an sRGB verdict needs all six tags read.
        if let profile = ICCProfile(bytes), profile.isSRGB, profile.colourSpace != "RGB " {
            broken.append("a \(profile.colourSpace) profile taken for sRGB")
        }
        return broken
    }

    /// The input's first bytes as a file name: a date read from it is a real calendar date, and
    /// a file dated by it lands on a real instant.
    static func fileName(_ bytes: UnsafeRawBufferPointer) -> [String] {
        // A name holds no slash: it would be a folder's.
        let name = PathBytes.string(Array(bytes.prefix(255)).map { $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
        let undated = CaptureTime(instant: Self.modified, source: .fileMTime)
        let capture = Self.resolver.named(undated, path: "/in/" + name, fileModified: Self.modified)
        guard let found = FileNameDate.parse(name, now: Self.resolver.now) else {
            return capture == undated ? [] : ["a name with no date changed the capture time"]
        }
        let wall = found.reading.wallTime
        if !wall.isValid { return ["the name \(name) gave an impossible date \(wall)"] }
        return capture.instant.timeIntervalSince1970.isFinite ? [] : ["a name date that is not a number"]
    }

    /// The input as an XMP sidecar, and its first bytes as each of a sidecar's values: what a
    /// packet gives is short, and what the values give dates a file to a real instant.
    static func sidecar(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var broken: [String] = []
        let undated = CaptureTime(instant: Self.modified, source: .fileMTime)
        if case .success(let fields) = XMPPacket.fields(in: Array(bytes)) {
            let values = [fields.dateTimeOriginal, fields.dateCreated, fields.gpsLatitude, fields.gpsLongitude]
            if values.contains(where: { ($0?.utf8.count ?? 0) > 256 }) {
                broken.append("a sidecar value past 256 bytes")
            }
            _ = Self.resolver.sidecar(fields, over: undated, exif: nil)
        }
        // The same bytes as a Sony video's XML: what it names is short.
        if case .success(let body) = SonyNonRealTimeMeta.body(in: Array(bytes)),
            [body.make, body.model, body.serial].contains(where: { ($0?.utf8.count ?? 0) > 128 })
        {
            broken.append("a Sony XML value past 128 bytes")
        }
        let text = String(decoding: bytes.prefix(48), as: UTF8.self)
        let fields = XMPFields(dateTimeOriginal: text, gpsLatitude: text, gpsLongitude: text)
        let capture = Self.resolver.sidecar(fields, over: undated, exif: nil)
        if !capture.instant.timeIntervalSince1970.isFinite { broken.append("a sidecar time that is not a number") }
        if let wall = capture.localTime, !wall.isValid { broken.append("a sidecar gave an impossible date \(wall)") }
        return broken
    }

    /// The input as a Google Takeout JSON, and its lines as a folder's names: what a JSON gives
    /// dates a file to a real instant, and every pair is a JSON with a file.
    static func takeout(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var broken: [String] = []
        if case .success(let fields) = TakeoutJSON.fields(in: Array(bytes)) {
            let undated = CaptureTime(instant: Self.modified, source: .fileMTime)
            let capture = Self.resolver.takeout(fields, over: undated)
            if !capture.instant.timeIntervalSince1970.isFinite { broken.append("a Takeout time that is not a number") }
        }
        // The input's lines as a folder's names (at most 255 bytes each), where one could be a JSON's.
        let head = UnsafeRawBufferPointer(rebasing: bytes.prefix(4_096))
        if Data(head).range(of: Data(".json".utf8)) != nil {
            let names = head.split(separator: UInt8(ascii: "\n")).map {
                String(decoding: $0.prefix(255), as: UTF8.self)
            }
            for (file, pair) in TakeoutPairing.pairs(in: names)
            where TakeoutPairing.isJSON(names[file]) || !TakeoutPairing.isJSON(names[pair.json]) {
                broken.append("\(names[file]) paired with \(names[pair.json])")
            }
        }
        // The input as an iCloud Photo Details.csv, where its head could be one's: every name it
        // dates is a file's name.
        if Data(head).range(of: Data("imgName".utf8)) != nil,
            case .success(let table) = ICloudPhotoDetails.table(in: Array(bytes)),
            table.times.keys.contains(where: { $0.isEmpty || $0.contains("/") })
        {
            broken.append("an iCloud CSV gave a name that is no file's")
        }
        return broken
    }

    /// The input as a zip file: its entries listed, and each read (its first MiB), never past
    /// the size its directory declares.
    static func zip(_ bytes: UnsafeRawBufferPointer) -> [String] {
        let size = UInt64(bytes.count)
        func read(_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
            guard offset < size else { return 0 }
            let count = min(buffer.count, bytes.count - Int(offset))
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset) + count]))
            return count
        }
        let listed = try? ZipDirectory.entries(size: size) { offset, count throws(ZipError) -> [UInt8] in
            var out = [UInt8](repeating: 0, count: count)
            let got = out.withUnsafeMutableBytes { read(offset, $0) }
            guard got == count else { throw ZipError("short") }
            return out
        }
        guard let entries = listed else { return [] }
        var broken: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        for entry in entries.prefix(16) {
            guard let stream = try? ZipEntryStream(entry: entry, fileSize: size, read: { read($0, $1) }) else {
                continue
            }
            var total: UInt64 = 0
            while total < 1 << 20 {
                let got = buffer.withUnsafeMutableBytes { raw in (try? stream.read(into: raw)) ?? 0 }
                if got == 0 { break }
                total += UInt64(got)
            }
            if total > entry.size {
                broken.append("a zip entry gave \(total) bytes, more than its declared \(entry.size)")
            }
            // Read whole too, when small: what it gives is the declared size, never more.
            guard entry.size <= 1 << 20 else { continue }
            let whole = try? ZipEntryStream.whole(entry, fileSize: size, read: { read($0, $1) })
            if let whole, whole.count != Int(entry.size) { broken.append("a zip entry read whole to a wrong size") }
        }
        return broken
    }

    /// The input as a video file: the streaming collector, fed in uneven chunks, must find the
    /// `moov` the whole-buffer walker finds; the reader's fields must resolve to a real instant.
    static func video(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var broken: [String] = []
        var collector = MovieBoxCollector(fileSize: UInt64(bytes.count))
        var offset = 0
        var chunk = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + [1, 7, 4_093][chunk % 3])
            collector.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), at: UInt64(offset))
            offset = end
            chunk += 1
        }
        let reader = ByteReader(bytes)
        let whole = ISOBox.find("moov", in: reader, range: 0..<bytes.count)
        if let whole, whole.payload.count <= MovieBoxCollector.limit {
            if !collector.isComplete || !collector.movie.elementsEqual(bytes[whole.payload]) {
                broken.append("the streamed moov differs from the one found in the whole input")
            }
        } else if collector.isComplete, ISOBox.children(in: reader, range: 0..<bytes.count).count < ISOBox.siblingLimit
        {
            // The whole-input walk stops after ISOBox.siblingLimit boxes; the streaming one sees a
            // video's every box (a fragmented MP4 has thousands), so only a shorter walk must agree.
            broken.append("the streamed walk found a moov the whole-input walk did not")
        }
        // The first `meta` beside `moov` is kept whole, or not at all when it is too large.
        let top = ISOBox.children(in: reader, range: 0..<bytes.count)
        if top.count < ISOBox.siblingLimit {
            let expected =
                top.first { $0.type == "meta" }.flatMap {
                    $0.payload.count <= MovieBoxCollector.metadataLimit ? Array(bytes[$0.payload]) : nil
                } ?? []
            if collector.metadata != expected {
                broken.append("the streamed meta differs from the one found in the whole input")
            }
        }
        for movie in [
            UnsafeRawBufferPointer(rebasing: bytes[...]),
            whole.map { UnsafeRawBufferPointer(rebasing: bytes[$0.payload]) },
        ] {
            guard let movie else { continue }
            // The input is also the `meta` beside it: a Sony camera's XML box, or not.
            let fields = collector.metadata.withUnsafeBytes { QuickTimeReader.fields(moov: movie, meta: $0) }
            _ = QuickTimeReader.fields(moov: movie, meta: movie)
            if ![0, 90, 180, 270].contains(fields.rotation) { broken.append("a rotation of \(fields.rotation)°") }
            let capture = Self.resolver.resolve(fields, fileModified: Self.modified)
            if !capture.instant.timeIntervalSince1970.isFinite {
                broken.append("a video capture time that is not a number")
            }
        }
        return broken
    }

    @discardableResult
    public static func run(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { Self.run($0) }
    }
}
