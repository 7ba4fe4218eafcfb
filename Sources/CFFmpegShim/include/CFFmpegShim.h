#ifndef INGEST_CFFMPEG_SHIM_H
#define INGEST_CFFMPEG_SHIM_H

// Wrappers for what Swift cannot reach in FFmpeg's libraries: error macros, a side-data lookup
// returning a raw matrix, and sws_scale's arrays of plane pointers. The decoding logic is in
// Swift (VideoFrameReader).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>

int ingest_av_error_again(void);
int ingest_av_error_eof(void);
int ingest_av_error_decoder_not_found(void);
// Degrees counterclockwise that the stream's display matrix turns its frames, as FFmpeg reports
// them; 0 when the stream has no matrix.
double ingest_av_stream_rotation(const AVStream *stream);
// Converts a decoded frame to packed RGB24 of the same size into `rgb` (`stride` bytes a row).
// Returns 0, or a negative AVERROR.
int ingest_av_frame_to_rgb(const AVFrame *frame, uint8_t *rgb, int stride);
// FFmpeg logs decode warnings on stderr; a file that fails reports its error through the API.
void ingest_av_silence_logs(void);
// Opens FFmpeg's libraries (see CLazyLibrary.h): 0, or -1 with the reason in `error`. Once, before
// any other FFmpeg call.
int ingest_av_open(char *error, size_t error_size);
// AVSEEK_SIZE: a seek callback asked for the content's size rather than to move.
int ingest_av_seek_size(void);
// Opens a video read through `read` and `seek` (called with `opaque`) instead of a file: content
// with no path of its own, such as an entry of a zip file. 0, or a negative AVERROR with
// `*format` NULL. Close it with ingest_av_close_callbacks, which frees its I/O context too.
int ingest_av_open_callbacks(
    AVFormatContext **format, void *opaque, int (*read)(void *, uint8_t *, int),
    int64_t (*seek)(void *, int64_t, int), AVDictionary **options);
void ingest_av_close_callbacks(AVFormatContext **format);

#endif
