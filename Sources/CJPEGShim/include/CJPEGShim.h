#ifndef INGEST_CJPEG_SHIM_H
#define INGEST_CJPEG_SHIM_H

// libjpeg's compressor for photoingest's thumbnails, on the calling thread. libvips's jpegsave
// hands every image to its worker threads and back (a thread pool and two write-behind threads
// a save): for a thumbnail that costs more than the encoding. libjpeg reports errors by
// longjmp, which Swift cannot catch: hence a C function, not a one-line wrapper.
#include <stddef.h>

// Encodes `height` rows of 8-bit pixels, `bands` 1 (grey) or 3 (RGB) a pixel, `stride` bytes from
// one row to the next, as libvips's jpegsave does with `Q` and `strip` (libvips built with
// libexif, as Debian's is): baseline, standard Huffman tables, 4:2:0 chroma below quality 90,
// no marker besides the image's own. On success returns 0 and a buffer from malloc, which the
// caller frees; on failure returns -1 with libjpeg's reason in `error`.
int ingest_jpeg_compress(const unsigned char *pixels, int width, int height, int bands, size_t stride, int quality,
                         unsigned char **out, size_t *length, char *error, size_t error_size);

// Opens libjpeg (see CLazyLibrary.h; libvips opens the same one): 0, or -1 with the reason in
// `error`. Once, before ingest_jpeg_compress.
int ingest_jpeg_open(char *error, size_t error_size);

#endif
