import CLibXML2Shim
import Foundation

/// libxml2's streaming reader (`xmlReaderForMemory`), set up strictly, for the XML that files
/// carry: an XMP packet, a Sony video's NonRealTimeMeta.
///
/// No recovery from errors, no entity substitution, no DTD loaded, no network. Not Foundation's
/// `XMLParser`: on Linux it runs libxml2 in recovery mode with entities substituted (a malformed
/// document "parses"), and its callbacks trap on names it cannot decode; the fuzz test crashed it
/// in minutes. The bytes are untrusted: a document larger than its reader's limit or with a
/// document type (whose entities could expand without end) is refused before parsing. One
/// document is parsed at a time in the process: each takes a millisecond, and libxml2's global
/// state is then never shared.
public enum StrictXML {
    /// Why a document gave nothing.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A plain mutex: a `Locked` of nothing made ThreadSanitizer report the empty value's access
    /// as a race (the access is made at the object's own address).
    private static let serial = NSLock()
    /// libxml2 opened and set up, once, before any thread parses; why not, when it cannot be.
    private static let unusable: String? = {
        var error = [CChar](repeating: 0, count: 512)
        guard ingest_xml_open(&error, error.count) == 0 else {
            return "libxml2 could not be opened: "
                + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ingest_xml_init()
        return nil
    }()

    /// Hands `walk` a reader on the document `bytes`, at most `sizeLimit` bytes; a refusal when
    /// they are empty, too many, declare a document type, or do not begin as XML does. `walk`
    /// reads the nodes (`ingest_xml_read` and the shim's accessors) and says what they held.
    public static func read<Found>(
        _ bytes: [UInt8], sizeLimit: Int, _ walk: (OpaquePointer) -> Result<Found, Refusal>
    ) -> Result<Found, Refusal> {
        guard !bytes.isEmpty else { return .failure(Refusal(description: "empty")) }
        guard bytes.count <= sizeLimit else {
            return .failure(Refusal(description: "larger than \(Self.describe(sizeLimit))"))
        }
        // XML starts with a tag, after a byte-order mark and white space at most.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else {
            return .failure(Refusal(description: "not XML"))
        }
        if Self.contains(bytes, "<!DOCTYPE") || Self.contains(bytes, "<!ENTITY") {
            return .failure(Refusal(description: "declares a document type (not read)"))
        }
        if let unusable = Self.unusable { return .failure(Refusal(description: unusable)) }
        return Self.serial.withLock {
            bytes.withUnsafeBufferPointer { buffer in
                // The reader reads the buffer in place: it is closed before the buffer goes.
                let opened = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    ingest_xml_reader_open($0, Int32(buffer.count))
                }
                guard let reader = opened else {
                    return .failure(Refusal(description: "not read: libxml2 had no memory"))
                }
                defer { ingest_xml_reader_close(reader) }
                return walk(reader)
            }
        }
    }

    /// The refusal for a document whose reading failed (`ingest_xml_read` gave -1), naming its line.
    public static func malformed(_ reader: OpaquePointer) -> Refusal {
        Refusal(description: "not well-formed XML (line \(ingest_xml_line(reader)))")
    }

    /// A libxml2 string as text (bytes that are not UTF-8 repaired); empty for none.
    public static func string(_ pointer: UnsafePointer<UInt8>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    static func describe(_ size: Int) -> String {
        size >= 1 << 20 ? "\(size >> 20) MiB" : "\(size >> 10) KiB"
    }

    /// Whether `needle` occurs in `bytes`.
    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return false }
        var index = 0
        while let start = bytes[index...].firstIndex(of: pattern[0]), start + pattern.count <= bytes.count {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { return true }
            index = start + 1
        }
        return false
    }
}
