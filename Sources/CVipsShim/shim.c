#include "CVipsShim.h"
#include "CLazyLibrary.h"
#include <malloc.h>
#include <stdio.h>

// Every libvips function photoingest calls, here and from Swift: each a trampoline into libvips,
// opened by ingest_vips_open (see CLazyLibrary.h). GLib is linked: it is small.
#define INGEST_VIPS_FUNCTIONS(X, table) \
    X(table, 0, vips_version) \
    X(table, 1, vips_init) \
    X(table, 2, vips_error) \
    X(table, 3, vips_image_new_from_buffer) \
    X(table, 4, vips_thumbnail_buffer) \
    X(table, 5, vips_thumbnail_image) \
    X(table, 6, vips_array_double_newv) \
    X(table, 7, vips_flatten) \
    X(table, 8, vips_area_unref) \
    X(table, 9, vips_colourspace) \
    X(table, 10, vips_jpegsave_buffer) \
    X(table, 11, vips_image_new_from_memory_copy) \
    X(table, 12, vips_copy) \
    X(table, 13, vips_rot) \
    X(table, 14, vips_cache_set_max) \
    X(table, 15, vips_cache_set_max_mem) \
    X(table, 16, vips_concurrency_set) \
    X(table, 17, vips_error_buffer) \
    X(table, 18, vips_error_clear) \
    X(table, 19, vips_image_new_memory) \
    X(table, 20, vips_image_get_bands) \
    X(table, 21, vips_image_get_blob) \
    X(table, 22, vips_image_get_height) \
    X(table, 23, vips_image_get_width) \
    X(table, 24, vips_image_get_interpretation) \
    X(table, 25, vips_image_get_typeof) \
    X(table, 26, vips_image_hasalpha) \
    X(table, 27, vips_image_get_format) \
    X(table, 28, vips_autorot) \
    X(table, 29, vips_image_set_int) \
    X(table, 30, vips_image_pipelinev) \
    X(table, 31, vips_image_write_prepare) \
    X(table, 32, vips_region_new) \
    X(table, 33, vips_region_prepare) \
    X(table, 34, vips_format_sizeof_unsafe) \
    X(table, 35, vips_rect_includespoint) \
    X(table, 36, vips_image_get_orientation)

INGEST_LAZY_FUNCTIONS(ingest_vips_table, INGEST_VIPS_FUNCTIONS)

int ingest_vips_open(char *error, size_t error_size) {
    char soname[32];
    snprintf(soname, sizeof soname, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    const char *const sonames[] = {soname};
    return ingest_lazy_open(sonames, 1, ingest_vips_table_names, ingest_vips_table, ingest_vips_table_count, error, error_size);
}

int ingest_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

int ingest_vips_header_from_buffer(const void *buffer, size_t length, VipsImage **out) { return (*out = vips_image_new_from_buffer(buffer, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL)) ? 0 : -1; }

// thumbnail_buffer ignores its own fail_on (libvips issue 5195) but hands option_string to the loader.
// Without export_profile, libvips builds no ICC transform (the caller knows the input is sRGB already).
// no_rotate: photoingest turns the thumbnail itself, after computing it (Thumbnailer.make).
int ingest_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width, int export_srgb, int no_rotate, const char *load_options) {
    if (export_srgb) return vips_thumbnail_buffer(buffer, length, out, width, "height", width, "size", VIPS_SIZE_DOWN, "no_rotate", no_rotate, "export_profile", "srgb", "option_string", load_options, NULL);
    return vips_thumbnail_buffer(buffer, length, out, width, "height", width, "size", VIPS_SIZE_DOWN, "no_rotate", no_rotate, "option_string", load_options, NULL);
}

// An EXIF orientation (1-8) applied to an image that does not carry it: set on a copy, then autorot.
int ingest_vips_orient(VipsImage *in, VipsImage **out, int orientation) {
    VipsImage *tagged;
    if (vips_copy(in, &tagged, NULL)) return -1;
    vips_image_set_int(tagged, "orientation", orientation);
    int status = vips_autorot(tagged, out, NULL);
    g_object_unref(tagged);
    return status;
}

int ingest_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width) { return vips_thumbnail_image(in, out, width, "height", width, "size", VIPS_SIZE_DOWN, NULL); }

// A JPEG decoded at 1/shrink in the DCT (libvips's own choice, or --fast-thumbnails'), with the loader
// options of every decode.
int ingest_vips_jpeg_shrunk(void *buffer, size_t length, VipsImage **out, int shrink, const char *load_options) {
    return (*out = vips_image_new_from_buffer(buffer, length, load_options, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) ? 0 : -1;
}

// What thumbnail_buffer does after its shrink-on-load: orientation, the resize left, sRGB if asked.
int ingest_vips_thumbnail_decoded(VipsImage *in, VipsImage **out, int width, int export_srgb, int no_rotate) {
    if (export_srgb) return vips_thumbnail_image(in, out, width, "height", width, "size", VIPS_SIZE_DOWN, "no_rotate", no_rotate, "export_profile", "srgb", NULL);
    return vips_thumbnail_image(in, out, width, "height", width, "size", VIPS_SIZE_DOWN, "no_rotate", no_rotate, NULL);
}

// The background array is reference-counted; the operation keeps its own reference.
int ingest_vips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int status = vips_flatten(in, out, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return status;
}

int ingest_vips_colourspace_srgb(VipsImage *in, VipsImage **out) { return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL); }

// A memory image with `in`'s header, its pixels allocated and not yet written.
int ingest_vips_memory_like(VipsImage *in, VipsImage **out) {
    *out = vips_image_new_memory();
    if (vips_image_pipelinev(*out, VIPS_DEMAND_STYLE_ANY, in, NULL) == 0 && vips_image_write_prepare(*out) == 0) return 0;
    g_object_unref(*out);
    *out = NULL;
    return -1;
}

size_t ingest_vips_line_size(const VipsImage *image) { return VIPS_IMAGE_SIZEOF_LINE(image); }

unsigned char *ingest_vips_image_line(VipsImage *image, int y) { return VIPS_IMAGE_ADDR(image, 0, y); }

unsigned char *ingest_vips_region_line(VipsRegion *region, int y) { return VIPS_REGION_ADDR(region, region->valid.left, y); }

// A memory image's 8-bit pixels, for an encoder of our own; -1 for any other image.
int ingest_vips_memory_pixels(VipsImage *image, const unsigned char **pixels) {
    if (image->dtype != VIPS_IMAGE_SETBUF || !image->data || image->BandFmt != VIPS_FORMAT_UCHAR || image->Coding != VIPS_CODING_NONE) return -1;
    *pixels = VIPS_IMAGE_ADDR(image, 0, 0);
    return 0;
}

int ingest_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality) { return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL); }

// Packed 8-bit RGB (a decoded video frame), copied, tagged as sRGB.
int ingest_vips_image_from_rgb(const void *rgb, size_t length, int width, int height, VipsImage **out) {
    VipsImage *raw = vips_image_new_from_memory_copy(rgb, length, width, height, 3, VIPS_FORMAT_UCHAR);
    if (!raw) return -1;
    int status = vips_copy(raw, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(raw);
    return status;
}

int ingest_vips_rotate(VipsImage *in, VipsImage **out, int clockwise_degrees) {
    VipsAngle angle = clockwise_degrees == 90 ? VIPS_ANGLE_D90
        : clockwise_degrees == 180 ? VIPS_ANGLE_D180
        : clockwise_degrees == 270 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, angle, NULL);
}

static void ingest_vips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

// libvips reports recoverable decode problems as GLib warnings on stderr; they would break
// the progress line, and a file that really fails reports its error through the error buffer.
void ingest_vips_silence_warnings(void) { g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, ingest_vips_ignore_log, NULL); }

int ingest_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

int ingest_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int ingest_malloc_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
