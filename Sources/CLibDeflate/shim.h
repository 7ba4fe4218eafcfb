// libdeflate from Debian (libdeflate-dev): a zip entry held whole, inflated at once, and its CRC-32.
#include <libdeflate.h>
