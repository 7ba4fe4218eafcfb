// libxml2, for the C shim's compile only (Sources/CLibXML2Shim): Swift imports the shim's header.
#include <libxml/xmlreader.h>
