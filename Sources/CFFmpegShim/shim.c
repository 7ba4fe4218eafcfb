#include "CFFmpegShim.h"
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <string.h>
#include <libswscale/swscale.h>

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
