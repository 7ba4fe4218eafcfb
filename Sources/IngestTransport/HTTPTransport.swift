import CCurlShim
import Foundation
import IngestCore

/// Transfer settings shared by every request.
public struct TransportOptions: Sendable {
    /// Concurrent transfers (and connections) to one host.
    public var maxConnections: Int = 6
    /// HTTP/2 multiplexing; off by default, because bulk uploads over one HTTP/2 connection share
    /// its flow-control window and are often slower than several HTTP/1.1 connections.
    public var http2 = false
    /// Skip TLS verification; only ever set by an explicit `--insecure`.
    public var insecure = false
    public var connectTimeoutMilliseconds = 10_000
    /// No transfer may take longer than this, whatever its speed.
    public var totalTimeoutMilliseconds = 600_000
    public var lowSpeedBytesPerSecond = 1_024
    public var lowSpeedSeconds = 30

    public init() {}
}

/// All of a client's HTTP: one libcurl multi handle driven by one thread, bridged to async code.
///
/// `perform` hands a request to the thread (waking it with `curl_multi_wakeup`) and suspends;
/// the thread adds it to the multi handle, drives every transfer with `curl_multi_perform` and
/// `curl_multi_poll`, and resumes each caller when its transfer completes. Connections are
/// reused across transfers; at most `maxConnections` run at once and the rest wait in libcurl.
public final class HTTPTransport: @unchecked Sendable {
    // @unchecked: `incoming` and `stopped` are guarded by `lock`; the multi handle and the
    // transfers are touched by the transport's own thread only.
    private let lock = NSLock()
    private var incoming: [(HTTPRequest, CheckedContinuation<Result<HTTPResponse, TransportError>, Never>)] = []
    private var stopped = false
    private var abandoning = false
    private let multi: UnsafeMutableRawPointer
    private let options: TransportOptions
    private var active: [ObjectIdentifier: Transfer] = [:]

    /// - Throws: ``IngestError`` when libcurl cannot be loaded.
    /// How many requests can be on the wire at once: one a connection over HTTP/1.1; over
    /// HTTP/2 a connection carries up to libcurl's default of 100 streams.
    public var requestsAtOnce: Int {
        self.options.http2 ? self.options.maxConnections * 100 : self.options.maxConnections
    }

    public init(options: TransportOptions) throws(IngestError) {
        try CurlLibrary.bootstrap()
        self.options = options
        self.multi = curl_multi_init()!
        _ = ingest_curl_multi_setopt_long(self.multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnections)
        _ = ingest_curl_multi_setopt_long(self.multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, options.maxConnections)
        _ = ingest_curl_multi_setopt_long(
            self.multi, CURLMOPT_PIPELINING, options.http2 ? Int(CURLPIPE_MULTIPLEX) : Int(CURLPIPE_NOTHING))
        let thread = Thread { [self] in self.loop() }
        thread.name = "curl-multi"
        thread.start()
    }

    /// Performs the request; a transport failure (no response at all) is the error.
    public func perform(_ request: HTTPRequest) async -> Result<HTTPResponse, TransportError> {
        await withCheckedContinuation { continuation in
            self.lock.lock()
            let stopped = self.stopped
            if !stopped { self.incoming.append((request, continuation)) }
            self.lock.unlock()
            if stopped {
                continuation.resume(
                    returning: .failure(TransportError(code: -1, message: "the transport was shut down")))
            } else {
                curl_multi_wakeup(self.multi)
            }
        }
    }

    /// The code of a ``TransportError`` for a transfer given up by ``abandon()``.
    public static let abandonedCode = -2
    /// The code of a request refused before sending: no retry can change it.
    public static let refusedCode = -3

    static func breaksHeader(_ text: String) -> Bool { text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 } }

    /// Gives up every transfer in flight and every one asked for from now on (after Ctrl-C):
    /// their callers get a ``TransportError`` with ``abandonedCode`` at once.
    public func abandon() {
        self.lock.lock()
        defer { self.lock.unlock() }
        // Woken under the lock: the thread cannot have seen `stopped` and freed the handle meanwhile.
        guard !self.stopped else { return }
        self.abandoning = true
        curl_multi_wakeup(self.multi)
    }

    /// Ends the thread; transfers still running fail.
    public func shutdown() {
        self.lock.lock()
        self.stopped = true
        self.lock.unlock()
        curl_multi_wakeup(self.multi)
    }

    private func loop() {
        var running: Int32 = 0
        while true {
            self.lock.lock()
            let requests = self.incoming
            self.incoming.removeAll()
            let stopped = self.stopped
            let abandoning = self.abandoning
            self.lock.unlock()
            if stopped { break }
            if abandoning {
                let abandoned = TransportError(
                    code: Self.abandonedCode, message: "stopped before the transfer finished")
                for (_, continuation) in requests { continuation.resume(returning: .failure(abandoned)) }
                self.removeAll(with: abandoned)
                curl_multi_poll(self.multi, nil, 0, 1_000, nil)
                continue
            }
            for (request, continuation) in requests {
                // A line break or NUL in a header would write headers of its own: never sent. The
                // value is not shown (it may be a token).
                if let unsafe = request.headers.first(where: { Self.breaksHeader($0.0) || Self.breaksHeader($0.1) }) {
                    continuation.resume(
                        returning: .failure(
                            TransportError(
                                code: Self.refusedCode,
                                message: "the \(unsafe.0) header holds a line break or NUL: not sent")))
                    continue
                }
                guard let transfer = Transfer(request, options: self.options, continuation: continuation) else {
                    continuation.resume(
                        returning: .failure(
                            TransportError(code: -1, message: "cannot prepare the request (unreadable file?)")))
                    continue
                }
                self.active[ObjectIdentifier(transfer)] = transfer
                curl_multi_add_handle(self.multi, transfer.easy)
            }
            curl_multi_perform(self.multi, &running)
            self.collectFinished()
            curl_multi_poll(self.multi, nil, 0, 1_000, nil)
        }
        self.removeAll(with: TransportError(code: -1, message: "the transport was shut down"))
        curl_multi_cleanup(self.multi)
    }

    private func removeAll(with error: TransportError) {
        for transfer in self.active.values {
            curl_multi_remove_handle(self.multi, transfer.easy)
            transfer.continuation.resume(returning: .failure(error))
        }
        self.active.removeAll()
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(self.multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result
            var pointer: UnsafeMutableRawPointer?
            _ = ingest_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
            curl_multi_remove_handle(self.multi, easy)
            guard let pointer else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(pointer).takeUnretainedValue()
            self.active[ObjectIdentifier(transfer)] = nil
            if result == CURLE_OK {
                var status = 0
                _ = ingest_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                transfer.continuation.resume(
                    returning: .success(
                        HTTPResponse(status: status, headers: transfer.responseHeaders, body: transfer.responseBody)))
            } else {
                let message = String(cString: curl_easy_strerror(result))
                transfer.continuation.resume(
                    returning: .failure(TransportError(code: Int(result.rawValue), message: message)))
            }
        }
    }
}

/// libcurl, opened on the first transport (a run that uploads nothing never loads it), and its
/// process-wide set-up, once, before any handle exists.
enum CurlLibrary {
    private static let started: Result<Void, IngestError> = {
        var reason = [CChar](repeating: 0, count: 512)
        guard ingest_curl_open(&reason, reason.count) == 0 else {
            return .failure(
                IngestError(
                    .invalidConfiguration,
                    "libcurl could not be loaded: \(String(nulTerminated: reason)) (is libcurl4 installed?)"))
        }
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return .success(())
    }()

    static func bootstrap() throws(IngestError) { try self.started.get() }
}
