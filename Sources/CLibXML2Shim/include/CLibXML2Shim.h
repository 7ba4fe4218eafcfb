#ifndef CLIBXML2SHIM_H
#define CLIBXML2SHIM_H

// libxml2's streaming reader behind an opaque pointer, for the XMP sidecar reader
// (Sources/IngestContainers/XMPPacket.swift). Swift never imports libxml2's own headers: they
// bring the system's ICU headers, which clash with the copy of ICU Foundation carries.

typedef struct ingest_xml_reader ingest_xml_reader;

// The node types the reader tells apart (libxml2's xmlReaderTypes; checked in shim.c).
enum {
    INGEST_XML_ELEMENT = 1,
    INGEST_XML_TEXT = 3,
    INGEST_XML_CDATA = 4,
    INGEST_XML_SIGNIFICANT_WHITESPACE = 14,
    INGEST_XML_END_ELEMENT = 15,
};

#include <stddef.h>

// Opens libxml2 (on first use, not at start-up); 0, or -1 with the reason in `error`. Call it
// once, before any other function here.
int ingest_xml_open(char *error, size_t error_size);
void ingest_xml_init(void);
ingest_xml_reader *ingest_xml_reader_open(const char *bytes, int size);
void ingest_xml_reader_close(ingest_xml_reader *reader);
int ingest_xml_read(ingest_xml_reader *reader);
int ingest_xml_node_type(ingest_xml_reader *reader);
const unsigned char *ingest_xml_namespace(ingest_xml_reader *reader);
const unsigned char *ingest_xml_local_name(ingest_xml_reader *reader);
const unsigned char *ingest_xml_value(ingest_xml_reader *reader);
int ingest_xml_first_attribute(ingest_xml_reader *reader);
int ingest_xml_next_attribute(ingest_xml_reader *reader);
int ingest_xml_to_element(ingest_xml_reader *reader);
int ingest_xml_is_empty_element(ingest_xml_reader *reader);
int ingest_xml_line(ingest_xml_reader *reader);

#endif
