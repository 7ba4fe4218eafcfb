#include "CFFmpegShim.h"
#include "CLazyLibrary.h"
#include <stdio.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <string.h>
#include <libswscale/swscale.h>

// Every FFmpeg function photoingest calls, here and from Swift: each a trampoline into FFmpeg's
// libraries, opened by ingest_av_open (see CLazyLibrary.h).
#define INGEST_AV_FUNCTIONS(X, table) \
    X(table, 0, avformat_open_input) \
    X(table, 1, avformat_find_stream_info) \
    X(table, 2, avformat_close_input) \
    X(table, 3, av_find_best_stream) \
    X(table, 4, av_read_frame) \
    X(table, 5, av_seek_frame) \
    X(table, 6, av_dict_set) \
    X(table, 7, av_dict_free) \
    X(table, 8, av_strerror) \
    X(table, 9, av_log_set_level) \
    X(table, 10, av_stream_get_side_data) \
    X(table, 11, av_display_rotation_get) \
    X(table, 12, av_image_alloc) \
    X(table, 13, av_freep) \
    X(table, 14, av_frame_alloc) \
    X(table, 15, av_frame_free) \
    X(table, 16, av_frame_unref) \
    X(table, 17, av_packet_alloc) \
    X(table, 18, av_packet_free) \
    X(table, 19, av_packet_unref) \
    X(table, 20, avcodec_alloc_context3) \
    X(table, 21, avcodec_free_context) \
    X(table, 22, avcodec_parameters_to_context) \
    X(table, 23, avcodec_open2) \
    X(table, 24, avcodec_send_packet) \
    X(table, 25, avcodec_receive_frame) \
    X(table, 26, sws_getContext) \
    X(table, 27, sws_scale) \
    X(table, 28, sws_freeContext) \
    X(table, 29, av_malloc) \
    X(table, 30, av_free) \
    X(table, 31, avio_alloc_context) \
    X(table, 32, avio_context_free) \
    X(table, 33, avformat_alloc_context)

INGEST_LAZY_FUNCTIONS(ingest_av_table, INGEST_AV_FUNCTIONS)

#define INGEST_STRING(value) #value
#define INGEST_SONAME(library, major) "lib" library ".so." INGEST_STRING(major)

int ingest_av_open(char *error, size_t error_size) {
    static const char *const sonames[] = {
        INGEST_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), INGEST_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        INGEST_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR), INGEST_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR)};
    return ingest_lazy_open(sonames, 4, ingest_av_table_names, ingest_av_table, ingest_av_table_count, error, error_size);
}

int ingest_av_error_again(void) { return AVERROR(EAGAIN); }

int ingest_av_error_eof(void) { return AVERROR_EOF; }

int ingest_av_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }

double ingest_av_stream_rotation(const AVStream *stream) {
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (!matrix) return 0;
    double rotation = av_display_rotation_get((const int32_t *)matrix);
    return rotation != rotation ? 0 : rotation;  // NaN for a degenerate matrix
}

// swscale's SIMD paths write past the end of rows whose stride is not a multiple of their
// width: scale into FFmpeg's own padded image, then copy the rows out.
int ingest_av_frame_to_rgb(const AVFrame *frame, uint8_t *rgb, int stride) {
    struct SwsContext *context = sws_getContext(
        frame->width, frame->height, frame->format, frame->width, frame->height, AV_PIX_FMT_RGB24,
        SWS_BILINEAR, NULL, NULL, NULL);
    if (!context) return AVERROR(EINVAL);
    uint8_t *planes[4] = { NULL };
    int strides[4] = { 0 };
    int status = av_image_alloc(planes, strides, frame->width, frame->height, AV_PIX_FMT_RGB24, 64);
    if (status < 0) {
        sws_freeContext(context);
        return status;
    }
    int rows = sws_scale(context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(context);
    if (rows == frame->height) {
        for (int row = 0; row < frame->height; row++) {
            memcpy(rgb + (size_t)row * stride, planes[0] + (size_t)row * strides[0], (size_t)frame->width * 3);
        }
    }
    av_freep(&planes[0]);
    return rows == frame->height ? 0 : AVERROR(EINVAL);
}

void ingest_av_silence_logs(void) { av_log_set_level(AV_LOG_QUIET); }

int ingest_av_seek_size(void) { return AVSEEK_SIZE; }

int ingest_av_open_callbacks(
    AVFormatContext **format, void *opaque, int (*read)(void *, uint8_t *, int),
    int64_t (*seek)(void *, int64_t, int), AVDictionary **options) {
    *format = NULL;
    enum { buffer_size = 1 << 16 };
    unsigned char *buffer = av_malloc(buffer_size);
    if (!buffer) return AVERROR(ENOMEM);
    AVIOContext *io = avio_alloc_context(buffer, buffer_size, 0, opaque, read, NULL, seek);
    if (!io) {
        av_free(buffer);
        return AVERROR(ENOMEM);
    }
    AVFormatContext *context = avformat_alloc_context();
    if (!context) {
        av_freep(&io->buffer);
        avio_context_free(&io);
        return AVERROR(ENOMEM);
    }
    context->pb = io;
    context->flags |= AVFMT_FLAG_CUSTOM_IO;
    // On failure avformat_open_input frees the format context, never a custom I/O context.
    int status = avformat_open_input(&context, NULL, NULL, options);
    if (status < 0) {
        av_freep(&io->buffer);
        avio_context_free(&io);
        return status;
    }
    *format = context;
    return 0;
}

void ingest_av_close_callbacks(AVFormatContext **format) {
    if (!*format) return;
    AVIOContext *io = (*format)->pb;
    avformat_close_input(format);
    if (io) {
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
}
