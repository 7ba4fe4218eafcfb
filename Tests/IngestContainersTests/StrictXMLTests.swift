import CLibXML2Shim
import IngestContainers
import Testing

/// The strict reader every XML a file carries goes through: what it refuses before parsing.
@Suite struct StrictXMLTests {
    /// The local name of the document's first element, or why there is none.
    func root(_ text: String, limit: Int = 1 << 10) -> Result<String, StrictXML.Refusal> {
        StrictXML.read(Array(text.utf8), sizeLimit: limit) { reader in
            while ingest_xml_read(reader) == 1 {
                if ingest_xml_node_type(reader) == Int32(INGEST_XML_ELEMENT) {
                    return .success(StrictXML.string(ingest_xml_local_name(reader)))
                }
            }
            return .failure(StrictXML.malformed(reader))
        }
    }

    @Test("A document is walked; empty, too large, not XML or with a document type, it is refused first")
    func refusals() throws {
        #expect(try self.root("\u{FEFF} <a><b/></a>").get() == "a")
        #expect(self.root("") == .failure(.init(description: "empty")))
        #expect(
            self.root("<a>" + String(repeating: " ", count: 2_000) + "</a>")
                == .failure(.init(description: "larger than 1 KiB")))
        #expect(self.root("a<b/>") == .failure(.init(description: "not XML")))
        #expect(self.root("<!DOCTYPE a><a/>") == .failure(.init(description: "declares a document type (not read)")))
        #expect(
            self.root("<?xml version=\"1.0\"?><").map { _ in "" }
                == .failure(.init(description: "not well-formed XML (line 1)")))
    }
}
