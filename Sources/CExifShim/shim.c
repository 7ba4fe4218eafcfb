#include "CExifShim.h"

ExifContent *ingest_exif_content(ExifData *data, ExifIfd ifd) { return (ifd >= 0 && ifd < EXIF_IFD_COUNT) ? data->ifd[ifd] : NULL; }

ExifEntry *ingest_exif_find(ExifData *data, ExifTag tag) { return exif_data_get_entry(data, tag); }
