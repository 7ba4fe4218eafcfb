import CLibXML2Shim
import IngestCore

/// Reads the camera body out of a Sony video's NonRealTimeMeta: the XML a Sony camera writes
/// in a `meta` box (handler `nrtm`) beside `moov`, whose `Device` element names the maker, the
/// model and the serial number (exiftool's `XML:DeviceManufacturer`, `DeviceModelName`,
/// `DeviceSerialNo`).
///
/// A parser of untrusted bytes: the box is walked through ``ISOBox`` and the XML read by
/// ``StrictXML``; values are taken as written, entities resolved, nothing else changed.
public enum SonyNonRealTimeMeta {
    /// The camera writes a few kilobytes; a megabyte is not this document.
    public static let sizeLimit = 1 << 20
    /// A maker, model or serial is a few words.
    static let textLimit = 128

    /// The body named in the `meta` box whose payload is `meta` (a full box: version and flags
    /// first); nil when it holds no NonRealTimeMeta naming one.
    public static func body(_ reader: ByteReader, meta: Range<Int>) -> CameraBody? {
        guard meta.count >= 4 else { return nil }
        let children = (meta.lowerBound + 4)..<meta.upperBound
        guard let handler = ISOBox.find("hdlr", in: reader, range: children), handler.payload.count >= 12,
            reader.fourCC(handler.payload.lowerBound + 8) == "nrtm",
            let xml = ISOBox.find("xml ", in: reader, range: children), xml.payload.count > 4,
            let bytes = reader.slice(xml.payload.lowerBound + 4, xml.payload.count - 4)
        else { return nil }
        // After its version and flags, the box holds the document.
        guard case .success(let body) = self.body(in: Array(bytes)), !body.isEmpty else { return nil }
        return body
    }

    /// The body the document's `Device` element (a child of its root, `NonRealTimeMeta`) names.
    public static func body(in document: [UInt8]) -> Result<CameraBody, StrictXML.Refusal> {
        StrictXML.read(document, sizeLimit: Self.sizeLimit) { reader in
            var body = CameraBody()
            var depth = 0
            var root: String?
            var status = ingest_xml_read(reader)
            while status == 1 {
                switch ingest_xml_node_type(reader) {
                case Int32(INGEST_XML_ELEMENT):
                    let name = StrictXML.string(ingest_xml_local_name(reader))
                    if depth == 0 { root = name }
                    if depth == 1, root == "NonRealTimeMeta", name == "Device", body.isEmpty {
                        body = Self.device(reader)
                        ingest_xml_to_element(reader)
                    }
                    if ingest_xml_is_empty_element(reader) == 0 { depth += 1 }
                case Int32(INGEST_XML_END_ELEMENT):
                    depth -= 1
                default:
                    break
                }
                status = ingest_xml_read(reader)
            }
            guard status == 0 else { return .failure(StrictXML.malformed(reader)) }
            return .success(body)
        }
    }

    /// The `Device` element's attributes: `manufacturer`, `modelName`, `serialNo`.
    static func device(_ reader: OpaquePointer) -> CameraBody {
        var body = CameraBody()
        var attribute = ingest_xml_first_attribute(reader)
        while attribute == 1 {
            let value = StrictXML.string(ingest_xml_value(reader))
            let text = value.isEmpty || value.utf8.count > Self.textLimit ? nil : value
            // Attributes without a prefix are in no namespace.
            if ingest_xml_namespace(reader) == nil {
                switch StrictXML.string(ingest_xml_local_name(reader)) {
                case "manufacturer": body.make = text
                case "modelName": body.model = text
                case "serialNo": body.serial = text
                default: break
                }
            }
            attribute = ingest_xml_next_attribute(reader)
        }
        return body
    }
}
