import CLibXML2Shim
import Foundation
import IngestCore

/// Reads the capture-time values (``XMPFields``) out of an XMP packet: a sidecar file as
/// Lightroom, darktable, digiKam, Capture One or exiftool write it.
///
/// The XML is read by ``StrictXML`` (libxml2's streaming reader, strictly). Writers differ in
/// form, not in meaning, so both are read: a property as an attribute of `rdf:Description`
/// (Lightroom, darktable, Capture One) or as an element (exiftool, digiKam); each by its
/// namespace URI, whatever prefix the file binds it to.
public enum XMPPacket {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// A sidecar with a long edit history is a few hundred kilobytes; none is 4 MiB.
    public static let sizeLimit = 4 << 20
    /// A property's value is short; an element's text past this is not a date or a coordinate.
    static let textLimit = 256

    /// Why a packet gave nothing.
    public typealias Refusal = StrictXML.Refusal

    /// The capture-time values of the packet `bytes`; a refusal when it is empty, too large,
    /// declares a document type, or is not well-formed XML.
    public static func fields(in bytes: [UInt8]) -> Result<XMPFields, Refusal> {
        StrictXML.read(bytes, sizeLimit: Self.sizeLimit, Self.read)
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
                    if let key = Self.property(reader) { take(StrictXML.string(ingest_xml_value(reader)), into: key) }
                    attribute = ingest_xml_next_attribute(reader)
                }
                ingest_xml_to_element(reader)
                if let key, ingest_xml_is_empty_element(reader) == 0 {
                    open = key
                    text = ""
                }
            case Int32(INGEST_XML_TEXT), Int32(INGEST_XML_CDATA), Int32(INGEST_XML_SIGNIFICANT_WHITESPACE):
                if open != nil, text.utf8.count <= Self.textLimit { text += StrictXML.string(ingest_xml_value(reader)) }
            case Int32(INGEST_XML_END_ELEMENT):
                if let key = open { take(text, into: key) }
                open = nil
            default:
                break
            }
            status = ingest_xml_read(reader)
        }
        guard status == 0 else { return .failure(StrictXML.malformed(reader)) }
        return .success(fields)
    }

    /// Where ``XMPFields`` keeps the property the reader is on (an element or an attribute), by
    /// its namespace URI and local name; nil for one not read.
    static func property(_ reader: OpaquePointer) -> WritableKeyPath<XMPFields, String?>? {
        guard let namespace = ingest_xml_namespace(reader), let name = ingest_xml_local_name(reader)
        else { return nil }
        switch (StrictXML.string(namespace), StrictXML.string(name)) {
        case (Self.exif, "DateTimeOriginal"): return \.dateTimeOriginal
        case (Self.exif, "GPSLatitude"): return \.gpsLatitude
        case (Self.exif, "GPSLongitude"): return \.gpsLongitude
        case (Self.photoshop, "DateCreated"): return \.dateCreated
        default: return nil
        }
    }
}
