// zlib from Debian (zlib1g-dev): inflate and CRC-32 for the entries of zip files.
#include <zlib.h>
