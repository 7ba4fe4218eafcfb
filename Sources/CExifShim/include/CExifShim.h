#ifndef INGEST_CEXIF_SHIM_H
#define INGEST_CEXIF_SHIM_H

// One-line wrappers for libexif's macros and struct fields Swift cannot reach directly.
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>

ExifContent *ingest_exif_content(ExifData *data, ExifIfd ifd);
ExifEntry *ingest_exif_find(ExifData *data, ExifTag tag);

#endif
