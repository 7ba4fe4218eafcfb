import CCurlShim
import Foundation
import IngestCore

/// One request in flight: its easy handle and everything libcurl reads from or writes to
/// while it runs. Owned by the transport's thread from start to finish.
final class Transfer {
    let easy: UnsafeMutableRawPointer
    private var mime: OpaquePointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var sources: [BodySource] = []
    private var keptStrings: [ContiguousArray<CChar>] = []
    var responseBody = Data()
    var responseHeaders: [String: String] = [:]
    let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>

    init?(
        _ request: HTTPRequest, options: TransportOptions,
        continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    ) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        self.continuation = continuation
        _ = ingest_curl_easy_setopt_string(easy, CURLOPT_URL, request.url)
        Self.configure(easy, options)
        self.collectResponse()
        // Every property is set by now, so a nil here still runs deinit, which frees the handle.
        guard self.prepare(request) else { return nil }
    }

    /// The options every request of the run shares: timeouts, HTTP version, TLS checks.
    private static func configure(_ easy: UnsafeMutableRawPointer, _ options: TransportOptions) {
        // No signals: libcurl runs on a thread of ours, and SIGALRM-based DNS timeouts would hit any thread.
        _ = ingest_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ingest_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, "photoingest/1")
        _ = ingest_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds)
        _ = ingest_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, options.totalTimeoutMilliseconds)
        // A transfer slower than this for this long is stalled, not slow: give up and retry.
        _ = ingest_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, options.lowSpeedBytesPerSecond)
        _ = ingest_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, options.lowSpeedSeconds)
        _ = ingest_curl_easy_setopt_long(
            easy, CURLOPT_HTTP_VERSION, options.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
        if options.insecure {
            _ = ingest_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0)
            _ = ingest_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0)
        }
    }

    /// Has libcurl hand the response's body and headers to this transfer (found again by the
    /// pointer it is given: the transfer lives until the request ends).
    private func collectResponse() {
        let easy = self.easy
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ingest_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me)
        _ = ingest_curl_easy_setopt_write_function(
            easy, CURLOPT_WRITEFUNCTION,
            { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                transfer.responseBody.append(
                    UnsafeRawPointer(data!).assumingMemoryBound(to: UInt8.self), count: size * count)
                return size * count
            })
        _ = ingest_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = ingest_curl_easy_setopt_write_function(
            easy, CURLOPT_HEADERFUNCTION,
            { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
                if line.hasPrefix("HTTP/") { transfer.responseHeaders = [:] }
                if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].lowercased()
                    transfer.responseHeaders[name] = line[line.index(after: colon)...].trimmingCharacters(
                        in: .whitespacesAndNewlines)
                }
                return size * count
            })
        _ = ingest_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
    }

    /// The request's headers and body: none, JSON, or a multipart form. False when the form
    /// could not be built.
    private func prepare(_ request: HTTPRequest) -> Bool {
        let easy = self.easy
        // The hash check already ran: no 100-continue round trip per file.
        var headers = request.headers + [("Expect", "")]
        switch request.body {
        case .none:
            break
        case .json(let data):
            headers.append(("Content-Type", "application/json"))
            _ = ingest_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, data.count)
            // COPYPOSTFIELDS copies the bytes before it returns.
            data.withUnsafeBytes {
                _ = ingest_curl_easy_setopt_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
            }
        case .multipart(let parts):
            guard self.attach(parts) else { return false }
        }
        if request.method == .post, case .none = request.body {
            _ = ingest_curl_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = ingest_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, 0)
        }
        for (name, value) in headers {
            // "Name:" with nothing after it removes a header libcurl would add by itself.
            self.headerList = curl_slist_append(self.headerList, value.isEmpty ? "\(name):" : "\(name): \(value)")
        }
        _ = ingest_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(self.headerList))
        return true
    }

    /// Builds the form with libcurl's mime API; file parts read through a callback.
    private func attach(_ parts: [FormPart]) -> Bool {
        guard let mime = curl_mime_init(self.easy) else { return false }
        self.mime = mime
        for part in parts {
            guard let handle = curl_mime_addpart(mime) else { return false }
            curl_mime_name(handle, part.name)
            if let filename = part.filename { curl_mime_filename(handle, filename) }
            if let type = part.contentType { curl_mime_type(handle, type) }
            switch part.content {
            case .text(let text):
                curl_mime_data(handle, text, text.utf8.count)
            case .bytes(let bytes):
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { curl_mime_data(handle, $0.baseAddress, $0.count) }
                }
            case .file(let path, let size):
                guard let source = FileSource(path: path) else { return false }
                self.attach(source, size: Int64(size), to: handle)
            case .content(let content):
                guard let reader = try? content.open() else { return false }
                self.attach(ContentBody(reader), size: content.size, to: handle)
            }
        }
        _ = ingest_curl_easy_setopt_pointer(self.easy, CURLOPT_MIMEPOST, UnsafeMutableRawPointer(mime))
        return true
    }

    /// Makes `source` the body of the form part `handle`, read through a callback as the transfer goes.
    private func attach(_ source: BodySource, size: Int64, to handle: OpaquePointer) {
        self.sources.append(source)
        curl_mime_data_cb(
            handle, curl_off_t(size),
            { buffer, size, count, context in
                Unmanaged<BodySource>.fromOpaque(context!).takeUnretainedValue().read(into: buffer!, size * count)
            },
            { context, offset, origin in
                Unmanaged<BodySource>.fromOpaque(context!).takeUnretainedValue().seek(offset, origin)
            },
            nil, Unmanaged.passUnretained(source).toOpaque())
    }

    deinit {
        curl_easy_cleanup(self.easy)
        if let mime = self.mime { curl_mime_free(mime) }
        if let list = self.headerList { curl_slist_free_all(list) }
    }
}

/// A form part's body read as the transfer goes, at the offset libcurl is at, so that a rewind
/// (libcurl resends a body after some redirects and auth exchanges) is a seek, not a reopen.
class BodySource {
    var offset: Int64 = 0

    /// Up to `length` bytes at ``offset``, or `CURL_READFUNC_ABORT`.
    func read(into buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int { Int(CURL_READFUNC_ABORT) }

    func seek(_ offset: curl_off_t, _ origin: Int32) -> Int32 {
        guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        self.offset = Int64(offset)
        return Int32(CURL_SEEKFUNC_OK)
    }
}

/// A file streamed into a form, read with `pread`.
final class FileSource: BodySource {
    private let descriptor: Int32

    init?(path: String) {
        self.descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        if self.descriptor < 0 { return nil }
    }

    deinit { close(self.descriptor) }

    override func read(into buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        let got = pread(self.descriptor, buffer, length, off_t(self.offset))
        // A file that shrank or became unreadable mid-upload aborts the transfer.
        guard got >= 0 else { return Int(CURL_READFUNC_ABORT) }
        self.offset += Int64(got)
        return got
    }
}

/// Content with no file of its own (a video inside a zip file) streamed into a form.
final class ContentBody: BodySource {
    private let reader: any ContentReader

    init(_ reader: any ContentReader) { self.reader = reader }

    override func read(into buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        do throws(IngestError) {
            let got = try self.reader.read(
                into: UnsafeMutableRawBufferPointer(start: buffer, count: length), at: self.offset)
            self.offset += Int64(got)
            return got
        } catch {
            // A damaged entry aborts the transfer; the read stage checked it whole already.
            return Int(CURL_READFUNC_ABORT)
        }
    }
}
