#ifndef INGEST_CVIPS_SHIM_H
#define INGEST_CVIPS_SHIM_H

// One-line wrappers for the libvips calls Swift cannot make: the VIPS_INIT macro and
// operations with varargs options. Each returns libvips's status (0 on success) and
// hands images back through out-parameters.
#include <vips/vips.h>

int ingest_vips_init(const char *argv0);
int ingest_vips_header_from_buffer(const void *buffer, size_t length, VipsImage **out);
int ingest_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width, int export_srgb, int no_rotate, const char *load_options);
int ingest_vips_orient(VipsImage *in, VipsImage **out, int orientation);
int ingest_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width);
int ingest_vips_jpeg_shrunk(void *buffer, size_t length, VipsImage **out, int shrink, const char *load_options);
int ingest_vips_thumbnail_decoded(VipsImage *in, VipsImage **out, int width, int export_srgb, int no_rotate);
int ingest_vips_flatten_white(VipsImage *in, VipsImage **out);
int ingest_vips_colourspace_srgb(VipsImage *in, VipsImage **out);
int ingest_vips_memory_like(VipsImage *in, VipsImage **out);
size_t ingest_vips_line_size(const VipsImage *image);
unsigned char *ingest_vips_image_line(VipsImage *image, int y);
unsigned char *ingest_vips_region_line(VipsRegion *region, int y);
int ingest_vips_memory_pixels(VipsImage *image, const unsigned char **pixels);
int ingest_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality);
int ingest_vips_image_from_rgb(const void *rgb, size_t length, int width, int height, VipsImage **out);
int ingest_vips_rotate(VipsImage *in, VipsImage **out, int clockwise_degrees);

void ingest_vips_silence_warnings(void);
// Opens libvips (see CLazyLibrary.h): 0, or -1 with the reason in `error`. Once, before any other
// libvips or GLib call.
int ingest_vips_open(char *error, size_t error_size);
// How many ORC compiles and frees went through photoingest's lock (orc_lock.c): tests see with it
// that libvips's calls reach the lock.
long ingest_orc_serialized_calls(void);
int ingest_malloc_arenas(int count);
int ingest_malloc_mmap_threshold(int bytes);
int ingest_malloc_trim_threshold(int bytes);

#endif
