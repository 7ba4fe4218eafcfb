import CFFmpegShim
import Foundation
import IngestCore

/// Decodes one frame early in a video with FFmpeg's libraries, for its thumbnails.
///
/// The frame is the keyframe at or before 1 s (the first one when the video is shorter): one
/// seek and one decode, never a pass over the video. FFmpeg reads only the parts of the file
/// it needs (the `moov` box and that frame's packets), and decodes on one thread, so that
/// `--jobs` stays the one limit on CPU, as for libvips.
public enum VideoFrameReader {
    /// Packets read after the seek before giving up: a stream that yields no frame within them is broken.
    static let packetLimit = 2_000

    /// FFmpeg's libraries, opened on the first video (Swift runs a static initialiser once).
    private static let opened = Result { () throws(IngestError) in
        var reason = [CChar](repeating: 0, count: 512)
        guard ingest_av_open(&reason, reason.count) == 0 else {
            throw IngestError(
                .invalidConfiguration,
                "FFmpeg's libraries could not be loaded: \(String(nulTerminated: reason)) (is libavformat59 installed?)"
            )
        }
        ingest_av_silence_logs()
    }

    /// - Throws: ``IngestError`` `.decodeFailed` with FFmpeg's reason, `.tooManyPixels` before decoding
    ///   a frame larger than `maxPixels`.
    public static func frame(path: String, near seconds: Double = 1, maxPixels: Int) throws(IngestError) -> VideoFrame {
        try Self.opened.get()
        let video = try Self.openAgain(path)
        defer { video.close() }
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2", 0)
        defer { av_dict_free(&options) }
        var input: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&input, "file:/proc/self/fd/\(video.raw)", nil, &options)
        defer { avformat_close_input(&input) }
        guard opened == 0, let format = input else { throw self.failure("opening the video", opened) }
        return try Self.frame(of: format, near: seconds, maxPixels: maxPixels)
    }

    /// A frame of a video with no file of its own (an entry of a zip file), read where it lies
    /// through `content`'s reader: FFmpeg reads what it needs, as from a file.
    ///
    /// - Throws: as ``frame(path:near:maxPixels:)``; the reader's own error when a read failed.
    public static func frame(content: ContentSource, near seconds: Double = 1, maxPixels: Int) throws(IngestError)
        -> VideoFrame
    {
        try Self.opened.get()
        let input = ContentInput(reader: try content.open(), size: content.size)
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2", 0)
        defer { av_dict_free(&options) }
        var context: UnsafeMutablePointer<AVFormatContext>?
        return try withExtendedLifetime(input) { () throws(IngestError) -> VideoFrame in
            let opened = ingest_av_open_callbacks(
                &context, Unmanaged.passUnretained(input).toOpaque(),
                { opaque, buffer, count in
                    Unmanaged<ContentInput>.fromOpaque(opaque!).takeUnretainedValue().read(
                        into: buffer!, count: Int(count))
                },
                { opaque, offset, whence in
                    Unmanaged<ContentInput>.fromOpaque(opaque!).takeUnretainedValue().seek(to: offset, whence: whence)
                }, &options)
            defer { ingest_av_close_callbacks(&context) }
            guard opened == 0, let format = context else {
                throw input.error ?? self.failure("opening the video", opened)
            }
            do throws(IngestError) {
                return try Self.frame(of: format, near: seconds, maxPixels: maxPixels)
            } catch {
                throw input.error ?? error
            }
        }
    }

    /// A frame of the opened video `format`: its best video stream decoded near `seconds`.
    private static func frame(
        of format: UnsafeMutablePointer<AVFormatContext>, near seconds: Double, maxPixels: Int
    ) throws(IngestError) -> VideoFrame {
        let probed = avformat_find_stream_info(format, nil)
        guard probed >= 0 else { throw self.failure("reading the video's streams", probed) }

        let (index, decoder, stream) = try Self.videoStream(of: format, maxPixels: maxPixels)
        var codec = avcodec_alloc_context3(decoder)
        guard let context = codec else { throw IngestError(.decodeFailed, "cannot allocate a decoder") }
        defer { avcodec_free_context(&codec) }
        let copied = avcodec_parameters_to_context(context, stream.pointee.codecpar)
        guard copied >= 0 else { throw self.failure("setting up the decoder", copied) }
        context.pointee.thread_count = 1
        // The header's size is the container's word; a frame inside may declare more. The decoder refuses those.
        context.pointee.max_pixels = Int64(maxPixels)
        let started = avcodec_open2(context, decoder, nil)
        guard started == 0 else { throw self.failure("opening the decoder", started) }
        Self.seek(format, stream: stream, index: index, near: seconds)
        return try Self.firstFrame(format, context: context, stream: stream, index: index, maxPixels: maxPixels)
    }

    /// The video, opened again by its path for FFmpeg. The file was read and hashed already; it
    /// may have been swapped since. Only a regular file is handed to FFmpeg (a FIFO would block
    /// its open for good), as a plain file (never a protocol its name might spell), and only the
    /// ISO media demuxers may read it.
    private static func openAgain(_ path: String) throws(IngestError) -> OpenFile {
        let file: OpenFile
        do {
            file = try OpenFile(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw IngestError(.decodeFailed, "cannot open the video again: \(error)")
        }
        guard let status = try? file.status(), status.st_mode & S_IFMT == S_IFREG else {
            file.close()
            throw IngestError(.decodeFailed, "the video is no longer a regular file")
        }
        return file
    }

    /// The best video stream and its decoder, refused before decoding when its frames would be
    /// larger than `maxPixels`.
    private static func videoStream(
        of format: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int
    ) throws(IngestError) -> (index: Int32, decoder: UnsafePointer<AVCodec>, stream: UnsafeMutablePointer<AVStream>) {
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = format.pointee.streams[Int(index)] else {
            throw IngestError(
                .decodeFailed,
                index == ingest_av_error_decoder_not_found() ? "no decoder for the video's codec" : "no video stream")
        }
        let parameters = stream.pointee.codecpar.pointee
        guard Int(parameters.width) * Int(parameters.height) <= maxPixels else {
            throw IngestError(
                .tooManyPixels,
                "too many pixels: video frames are \(parameters.width)×\(parameters.height) pixels, over the limit of \(maxPixels)"
            )
        }
        return (index, decoder, stream)
    }

    /// Seeks to the keyframe at or before `seconds` when the video lasts longer; else the
    /// decoding starts at the beginning.
    private static func seek(
        _ format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>, index: Int32,
        near seconds: Double
    ) {
        let timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
        let duration =
            stream.pointee.duration > 0
            ? Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
            : Double(format.pointee.duration) / Double(AV_TIME_BASE)
        guard duration > seconds, timeBase.num > 0 else { return }
        let (target, overflow) = start.addingReportingOverflow(
            Int64(seconds * Double(timeBase.den) / Double(timeBase.num)))
        if overflow || av_seek_frame(format, index, target, AVSEEK_FLAG_BACKWARD) < 0 {
            av_seek_frame(format, index, start, AVSEEK_FLAG_BACKWARD)
        }
    }

    /// The first frame the decoder gives from where the reading stands, within ``packetLimit`` packets.
    private static func firstFrame(
        _ format: UnsafeMutablePointer<AVFormatContext>, context: UnsafeMutablePointer<AVCodecContext>,
        stream: UnsafeMutablePointer<AVStream>, index: Int32, maxPixels: Int
    ) throws(IngestError) -> VideoFrame {
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let packet, let frame else { throw IngestError(.decodeFailed, "cannot allocate a frame") }
        var lastError: Int32 = 0
        var draining = false
        for _ in 0..<self.packetLimit {
            if !draining {
                let read = av_read_frame(format, packet)
                if read < 0 {
                    draining = true  // end of file: flush the decoder for the frames it holds
                    avcodec_send_packet(context, nil)
                } else {
                    defer { av_packet_unref(packet) }
                    guard packet.pointee.stream_index == index else { continue }
                    let sent = avcodec_send_packet(context, packet)
                    if sent < 0 && sent != ingest_av_error_again() { lastError = sent }
                }
            }
            let received = avcodec_receive_frame(context, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                return try self.rgb(frame, stream: stream, timeBase: stream.pointee.time_base, maxPixels: maxPixels)
            }
            if received == ingest_av_error_eof() { break }
            if received != ingest_av_error_again() { lastError = received }
        }
        throw lastError < 0
            ? self.failure("decoding a frame", lastError) : IngestError(.decodeFailed, "no frame could be decoded")
    }

    private static func rgb(
        _ frame: UnsafeMutablePointer<AVFrame>, stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational,
        maxPixels: Int
    ) throws(IngestError) -> VideoFrame {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw IngestError(.decodeFailed, "the decoded frame is empty") }
        guard width * height <= maxPixels else {
            throw IngestError(
                .tooManyPixels,
                "too many pixels: a video frame is \(width)×\(height) pixels, over the limit of \(maxPixels)")
        }
        var status: Int32 = 0
        let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            status = ingest_av_frame_to_rgb(frame, buffer.baseAddress, Int32(width * 3))
            count = status == 0 ? width * height * 3 : 0
        }
        guard status == 0 else { throw self.failure("converting the frame to RGB", status) }
        // FFmpeg reports the matrix's turn counterclockwise; the display needs it undone clockwise.
        let counterclockwise = ingest_av_stream_rotation(stream)
        let rotation = ((Int((-counterclockwise / 90).rounded()) * 90) % 360 + 360) % 360
        let pts = frame.pointee.best_effort_timestamp
        let seconds = pts == Int64.min ? 0 : Double(pts) * Double(timeBase.num) / Double(max(timeBase.den, 1))
        return VideoFrame(rgb: rgb, width: width, height: height, rotation: rotation, seconds: seconds)
    }

    private static func failure(_ doing: String, _ code: Int32) -> IngestError {
        var text = [CChar](repeating: 0, count: 256)
        av_strerror(code, &text, text.count)
        return IngestError(.decodeFailed, "\(doing) failed: \(String(nulTerminated: text))")
    }
}
