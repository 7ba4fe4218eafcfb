#include "CLibXML2Shim.h"
#include "CLazyLibrary.h"
#include <libxml/xmlreader.h>

// Every libxml2 function called here: each a trampoline into libxml2, opened by ingest_xml_open
// (see CLazyLibrary.h). libxml2 brings ICU and liblzma with it; linked, their relocations cost
// every run a few milliseconds (a nightly re-run of 10,000 unchanged files took 9% longer), and
// only files with a sidecar need them.
#define INGEST_XML_FUNCTIONS(X, table) \
    X(table, 0, xmlInitParser) \
    X(table, 1, xmlSetGenericErrorFunc) \
    X(table, 2, xmlReaderForMemory) \
    X(table, 3, xmlFreeTextReader) \
    X(table, 4, xmlTextReaderRead) \
    X(table, 5, xmlTextReaderNodeType) \
    X(table, 6, xmlTextReaderConstNamespaceUri) \
    X(table, 7, xmlTextReaderConstLocalName) \
    X(table, 8, xmlTextReaderConstValue) \
    X(table, 9, xmlTextReaderMoveToFirstAttribute) \
    X(table, 10, xmlTextReaderMoveToNextAttribute) \
    X(table, 11, xmlTextReaderMoveToElement) \
    X(table, 12, xmlTextReaderIsEmptyElement) \
    X(table, 13, xmlTextReaderGetParserLineNumber)

INGEST_LAZY_FUNCTIONS(ingest_xml_table, INGEST_XML_FUNCTIONS)

int ingest_xml_open(char *error, size_t error_size) {
    const char *const sonames[] = {"libxml2.so.2"};
    return ingest_lazy_open(sonames, 1, ingest_xml_table_names, ingest_xml_table, ingest_xml_table_count, error, error_size);
}

_Static_assert(INGEST_XML_ELEMENT == XML_READER_TYPE_ELEMENT, "libxml2's element type");
_Static_assert(INGEST_XML_TEXT == XML_READER_TYPE_TEXT, "libxml2's text type");
_Static_assert(INGEST_XML_CDATA == XML_READER_TYPE_CDATA, "libxml2's CDATA type");
_Static_assert(INGEST_XML_SIGNIFICANT_WHITESPACE == XML_READER_TYPE_SIGNIFICANT_WHITESPACE, "libxml2's whitespace type");
_Static_assert(INGEST_XML_END_ELEMENT == XML_READER_TYPE_END_ELEMENT, "libxml2's end type");

static xmlTextReaderPtr reader_of(ingest_xml_reader *reader) { return (xmlTextReaderPtr)reader; }

// libxml2 prints encoding and I/O errors through its generic handler, whatever the parser's
// options say; the handler is the calling thread's, so it is set before each document.
static void silent(void *context, const char *message, ...) { (void)context; (void)message; }

void ingest_xml_init(void) { xmlInitParser(); }

// Strict: no recovery from errors, entities not substituted, no DTD loaded, no network, nothing
// printed on standard error (the caller reports the failure).
ingest_xml_reader *ingest_xml_reader_open(const char *bytes, int size) { xmlSetGenericErrorFunc(NULL, silent); return (ingest_xml_reader *)xmlReaderForMemory(bytes, size, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING); }

void ingest_xml_reader_close(ingest_xml_reader *reader) { xmlFreeTextReader(reader_of(reader)); }
int ingest_xml_read(ingest_xml_reader *reader) { return xmlTextReaderRead(reader_of(reader)); }
int ingest_xml_node_type(ingest_xml_reader *reader) { return xmlTextReaderNodeType(reader_of(reader)); }
const unsigned char *ingest_xml_namespace(ingest_xml_reader *reader) { return xmlTextReaderConstNamespaceUri(reader_of(reader)); }
const unsigned char *ingest_xml_local_name(ingest_xml_reader *reader) { return xmlTextReaderConstLocalName(reader_of(reader)); }
const unsigned char *ingest_xml_value(ingest_xml_reader *reader) { return xmlTextReaderConstValue(reader_of(reader)); }
int ingest_xml_first_attribute(ingest_xml_reader *reader) { return xmlTextReaderMoveToFirstAttribute(reader_of(reader)); }
int ingest_xml_next_attribute(ingest_xml_reader *reader) { return xmlTextReaderMoveToNextAttribute(reader_of(reader)); }
int ingest_xml_to_element(ingest_xml_reader *reader) { return xmlTextReaderMoveToElement(reader_of(reader)); }
int ingest_xml_is_empty_element(ingest_xml_reader *reader) { return xmlTextReaderIsEmptyElement(reader_of(reader)); }
int ingest_xml_line(ingest_xml_reader *reader) { return xmlTextReaderGetParserLineNumber(reader_of(reader)); }
