import CLibXML2Shim
import Foundation
import IngestCore

/// Reads the capture-time values (``XMPFields``) out of an XMP packet: a sidecar file as
/// Lightroom, darktable, digiKam, Capture One or exiftool write it.
///
/// The XML is read by libxml2's streaming reader (`xmlReaderForMemory`), strictly: no recovery
/// from errors, no entity substitution, no DTD loaded, no network. Not Foundation's `XMLParser`:
/// on Linux it runs libxml2 in recovery mode with entities substituted (a malformed packet
/// "parses"), and its callbacks trap on names it cannot decode; the fuzz test crashed it in
/// minutes. Writers differ in form, not in meaning, so both are read: a property as an attribute
/// of `rdf:Description` (Lightroom, darktable, Capture One) or as an element (exiftool, digiKam);
/// each by its namespace URI, whatever prefix the file binds it to.
///
/// The bytes are untrusted: a packet larger than ``sizeLimit`` or with a document type (whose
/// entities could expand without end) is refused before parsing. One packet is parsed at a time
/// in the process: a sidecar takes a millisecond, and libxml2's global state is then never shared.
public enum XMPPacket {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// A sidecar with a long edit history is a few hundred kilobytes; none is 4 MiB.
    public static let sizeLimit = 4 << 20
    /// A property's value is short; an element's text past this is not a date or a coordinate.
    static let textLimit = 256

    /// Why a packet gave nothing.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String
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

    /// The capture-time values of the packet `bytes`; a refusal when it is empty, too large,
    /// declares a document type, or is not well-formed XML.
    public static func fields(in bytes: [UInt8]) -> Result<XMPFields, Refusal> {
        guard !bytes.isEmpty else { return .failure(Refusal(description: "empty")) }
        guard bytes.count <= Self.sizeLimit else {
            return .failure(Refusal(description: "larger than \(Self.sizeLimit >> 20) MiB"))
        }
        // XML starts with a tag, after a byte-order mark and white space at most.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else {
            return .failure(Refusal(description: "not XML"))
        }
        if Self.contains(bytes, "<!DOCTYPE") || Self.contains(bytes, "<!ENTITY") {
            return .failure(Refusal(description: "declares a document type (not read: XMP has none)"))
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
                return Self.read(reader)
            }
        }
    }

    /// Walks the document: the properties from attributes, and the text of a property element
    /// that holds nothing but text.
    static func read(_ reader: OpaquePointer) -> Result<XMPFields, Refusal> {
        var fields = XMPFields()
        var open: WritableKeyPath<XMPFields, String?>?
        var text = ""
        func take(_ value: String, into key: WritableKeyPath<XMPFields, String?>) {
            // The first non-empty value of a property wins: a packet describes one photo.
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard fields[keyPath: key] == nil, !trimmed.isEmpty, trimmed.utf8.count <= Self.textLimit else { return }
            fields[keyPath: key] = trimmed
        }
        var status = ingest_xml_read(reader)
        while status == 1 {
            switch ingest_xml_node_type(reader) {
            case Int32(INGEST_XML_ELEMENT):
                // An element inside a property element makes it a structure, not a value.
                open = nil
                let key = Self.property(reader)
                var attribute = ingest_xml_first_attribute(reader)
                while attribute == 1 {
                    if let key = Self.property(reader) { take(Self.string(ingest_xml_value(reader)), into: key) }
                    attribute = ingest_xml_next_attribute(reader)
                }
                ingest_xml_to_element(reader)
                if let key, ingest_xml_is_empty_element(reader) == 0 {
                    open = key
                    text = ""
                }
            case Int32(INGEST_XML_TEXT), Int32(INGEST_XML_CDATA), Int32(INGEST_XML_SIGNIFICANT_WHITESPACE):
                if open != nil, text.utf8.count <= Self.textLimit { text += Self.string(ingest_xml_value(reader)) }
            case Int32(INGEST_XML_END_ELEMENT):
                if let key = open { take(text, into: key) }
                open = nil
            default:
                break
            }
            status = ingest_xml_read(reader)
        }
        guard status == 0 else {
            let line = ingest_xml_line(reader)
            return .failure(Refusal(description: "not well-formed XML (line \(line))"))
        }
        return .success(fields)
    }

    /// Where ``XMPFields`` keeps the property the reader is on (an element or an attribute), by
    /// its namespace URI and local name; nil for one not read.
    static func property(_ reader: OpaquePointer) -> WritableKeyPath<XMPFields, String?>? {
        guard let namespace = ingest_xml_namespace(reader), let name = ingest_xml_local_name(reader)
        else { return nil }
        switch (Self.string(namespace), Self.string(name)) {
        case (Self.exif, "DateTimeOriginal"): return \.dateTimeOriginal
        case (Self.exif, "GPSLatitude"): return \.gpsLatitude
        case (Self.exif, "GPSLongitude"): return \.gpsLongitude
        case (Self.photoshop, "DateCreated"): return \.dateCreated
        default: return nil
        }
    }

    /// A libxml2 string as text (bytes that are not UTF-8 repaired); empty for none.
    static func string(_ pointer: UnsafePointer<UInt8>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
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
