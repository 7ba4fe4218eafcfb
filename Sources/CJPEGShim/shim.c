#include "CJPEGShim.h"
#include "CLazyLibrary.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// Every libjpeg function photoingest calls: each a trampoline into libjpeg, opened by
// ingest_jpeg_open (see CLazyLibrary.h).
#define INGEST_JPEG_FUNCTIONS(X, table) \
    X(table, 0, jpeg_std_error) \
    X(table, 1, jpeg_CreateCompress) \
    X(table, 2, jpeg_set_defaults) \
    X(table, 3, jpeg_set_quality) \
    X(table, 4, jpeg_start_compress) \
    X(table, 5, jpeg_write_scanlines) \
    X(table, 6, jpeg_finish_compress) \
    X(table, 7, jpeg_destroy_compress)

INGEST_LAZY_FUNCTIONS(ingest_jpeg_table, INGEST_JPEG_FUNCTIONS)

int ingest_jpeg_open(char *error, size_t error_size) {
    // libjpeg-turbo's soname follows the API it emulates: .62 for 6b's, .8 for 8's.
    char soname[32];
    snprintf(soname, sizeof soname, "libjpeg.so.%d", JPEG_LIB_VERSION >= 70 ? JPEG_LIB_VERSION / 10 : JPEG_LIB_VERSION);
    const char *const sonames[] = {soname};
    return ingest_lazy_open(sonames, 1, ingest_jpeg_table_names, ingest_jpeg_table, ingest_jpeg_table_count, error,
                            error_size);
}

// An error leaves libjpeg by longjmp back into ingest_jpeg_compress, its message kept.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} Failure;

static void failed(j_common_ptr info) {
    Failure *failure = (Failure *)info->err;
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->jump, 1);
}

// Warnings (none is expected of a compressor given whole rows) are not errors.
static void noted(j_common_ptr info, int level) {}

// The output grows in a buffer of ours (not jpeg_mem_dest's, which frees and reallocates behind
// the caller's pointer), doubled whenever libjpeg fills it.
typedef struct {
    struct jpeg_destination_mgr manager;
    unsigned char *buffer;
    size_t capacity;
} Output;

static void output_start(j_compress_ptr info) {
    Output *output = (Output *)info->dest;
    output->manager.next_output_byte = output->buffer;
    output->manager.free_in_buffer = output->capacity;
}

static boolean output_full(j_compress_ptr info) {
    Output *output = (Output *)info->dest;
    unsigned char *grown = realloc(output->buffer, output->capacity * 2);
    if (!grown) ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    output->buffer = grown;
    output->manager.next_output_byte = grown + output->capacity;
    output->manager.free_in_buffer = output->capacity;
    output->capacity *= 2;
    return TRUE;
}

static void output_end(j_compress_ptr info) {}

int ingest_jpeg_compress(const unsigned char *pixels, int width, int height, int bands, size_t stride, int quality,
                         unsigned char **out, size_t *length, char *error, size_t error_size) {
    // Zeroed: a failure inside jpeg_create_compress itself (a library of another version) finds
    // no memory manager to tear down.
    struct jpeg_compress_struct info = {0};
    Failure failure;
    // A thumbnail's JPEG is about a tenth of its pixels' bytes: room for that, grown if need be.
    size_t pixels_size = (size_t)(width > 0 ? width : 0) * (size_t)(height > 0 ? height : 0) * (size_t)bands;
    Output output = {.buffer = NULL, .capacity = pixels_size / 8 > 16384 ? pixels_size / 8 : 16384};
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = failed;
    failure.manager.emit_message = noted;
    // Read after a longjmp. `output` and `info` are changed after the setjmp, which C leaves
    // indeterminate for locals kept in registers; their addresses are libjpeg's (info.dest, the
    // error manager), so they live in memory, as in libjpeg's own example.c. The volatile read
    // keeps the compiler from using a copy of the pointer taken before the jump.
    unsigned char *volatile *buffer = &output.buffer;
    if (setjmp(failure.jump)) {
        snprintf(error, error_size, "%s", failure.message);
        jpeg_destroy_compress(&info);
        free(*buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    if (!(output.buffer = malloc(output.capacity))) ERREXIT1(&info, JERR_OUT_OF_MEMORY, 0);
    output.manager.init_destination = output_start;
    output.manager.empty_output_buffer = output_full;
    output.manager.term_destination = output_end;
    info.dest = &output.manager;
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = bands;
    info.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
    // What libvips's jpegsave sets, in its order: defaults, no optimised Huffman tables, the
    // quality (its tables scaled, baseline-limited), full chroma from 90 up, and no JFIF marker
    // when stripping (libvips with libexif writes none).
    jpeg_set_defaults(&info);
    info.optimize_coding = FALSE;
    jpeg_set_quality(&info, quality, TRUE);
    if (quality >= 90) {
        for (int band = 0; band < bands; band++) {
            info.comp_info[band].h_samp_factor = 1;
            info.comp_info[band].v_samp_factor = 1;
        }
    }
    info.write_JFIF_header = FALSE;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    *out = output.buffer;
    *length = output.capacity - output.manager.free_in_buffer;
    jpeg_destroy_compress(&info);
    return 0;
}
