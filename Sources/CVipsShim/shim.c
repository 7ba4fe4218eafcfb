#include "CVipsShim.h"
#include <malloc.h>

int ingest_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

int ingest_vips_header_from_buffer(const void *buffer, size_t length, VipsImage **out) { return (*out = vips_image_new_from_buffer(buffer, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL)) ? 0 : -1; }

// thumbnail_buffer ignores its own fail_on (libvips issue 5195) but hands option_string to the loader.
// Without export_profile, libvips builds no ICC transform (the caller knows the input is sRGB already).
int ingest_vips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width, int export_srgb, const char *load_options) {
    if (export_srgb) return vips_thumbnail_buffer(buffer, length, out, width, "height", width, "size", VIPS_SIZE_DOWN, "export_profile", "srgb", "option_string", load_options, NULL);
    return vips_thumbnail_buffer(buffer, length, out, width, "height", width, "size", VIPS_SIZE_DOWN, "option_string", load_options, NULL);
}

int ingest_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width) { return vips_thumbnail_image(in, out, width, "height", width, "size", VIPS_SIZE_DOWN, NULL); }

// The background array is reference-counted; the operation keeps its own reference.
int ingest_vips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int status = vips_flatten(in, out, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return status;
}

int ingest_vips_colourspace_srgb(VipsImage *in, VipsImage **out) { return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL); }

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
