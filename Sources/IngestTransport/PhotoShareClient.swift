import Foundation
import IngestCore
import Synchronization

/// The PhotoShare API, client side: events, the uploaded-hash sets and uploads, with
/// authentication, retries and back-off.
public final class PhotoShareClient: Sendable {
    public let address: ServerAddress
    let transport: HTTPTransport
    let tokens: TokenProvider
    let retry: RetryPolicy
    /// Stops the run's requests once the server has not answered for a while.
    public let breaker: CircuitBreaker
    private let statistics = Locked(TransferStatistics())
    /// Set by the first Ctrl-C: requests in flight may finish, none is retried.
    private let stopping = Atomic(false)

    /// - Parameter unreachableAfter: how long the server may answer nothing at all before every
    ///   request fails with `.serverUnreachable` (see ``CircuitBreaker``).
    public init(
        address: ServerAddress, transport: HTTPTransport, tokens: TokenProvider, retry: RetryPolicy,
        unreachableAfter: TimeInterval = 30
    ) {
        self.address = address
        self.transport = transport
        self.tokens = tokens
        self.retry = retry
        self.breaker = CircuitBreaker(host: address.shown, giveUpAfter: unreachableAfter)
    }

    public var transferStatistics: TransferStatistics { self.statistics.withLock { $0 } }

    /// How many uploads can be sending at once; those begun beyond it wait their turn.
    public var requestsAtOnce: Int { self.transport.requestsAtOnce }

    /// After the first Ctrl-C: the transfers in flight may finish, however long that takes while
    /// their bytes move, but none is retried. One that stalls is ended by libcurl's own
    /// low-speed check (`--stall-timeout`), which also sees the end of a body the server is still
    /// reading from the socket's buffers, where a count of the bytes handed to the socket goes
    /// quiet for seconds. Their files end pending, for the next run; a second Ctrl-C stops at once.
    /// (Once a fixed --stall-timeout after the first: a 1.6 GB upload was cut 8 s from its end.)
    public func finishInFlight() {
        self.stopping.store(true, ordering: .relaxed)
    }

    /// The events the user's token can see.
    public func events() async throws(IngestError) -> [Event] {
        let response = try await self.send(kind: .access) { token in
            HTTPRequest(
                method: .get, url: self.address.baseURL + "/api/getUserEventsWithAnalytics", headers: Self.auth(token))
        }
        guard response.status == 200 else { throw Self.failure(response, doing: "listing events") }
        guard let events = PhotoShareDecoding.events(response.body) else {
            throw IngestError(.serverUnusable, "the events list is not the JSON the PhotoShare API describes")
        }
        return events
    }

    /// Every hash the event already holds, fetched once.
    public func uploadedHashes(eventID: String) async throws(IngestError) -> KnownHashes {
        let escaped =
            eventID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? eventID
        let url =
            self.address.functionsURL.map { $0 + "/functions/v1/api-events-uploaded-photos/" + escaped }
            ?? self.address.baseURL + "/api/events/\(escaped)/uploaded-photos"
        let response = try await self.send(kind: .access) { token in
            HTTPRequest(method: .get, url: url, headers: Self.auth(token))
        }
        guard response.status == 200 else {
            throw Self.failure(response, doing: "fetching the event's uploaded hashes")
        }
        guard let hashes = PhotoShareDecoding.hashes(response.body) else {
            throw IngestError(.serverUnusable, "the uploaded-hash list is not the JSON the PhotoShare API describes")
        }
        return hashes
    }

    public enum UploadOutcome: Sendable, Equatable {
        case uploaded
        case duplicate
    }

    /// Uploads one photo: the original streamed from its file (or sent from memory when it has
    /// none), the thumbnails from memory.
    ///
    /// - Throws: ``IngestError`` `.uploadRejected` for an answer no retry will change,
    ///   `.uploadFailed` when retries ran out, `.tokenRefused` when the upload token is refused.
    public func upload(_ photo: PhotoUpload) async throws(IngestError) -> UploadOutcome {
        self.statistics.withLock { $0.uploadsInFlight += 1 }
        defer { self.statistics.withLock { $0.uploadsInFlight -= 1 } }
        let description = PhotoDescription(
            fileName: photo.filename, photoHash: photo.hash.prefixed, fileSize: Int(photo.size),
            dateTaken: Self.rfc3339Seconds(photo.capturedAt),
            deviceInfo: PhotoDescription.DeviceInfo(platform: "linux", autoUpload: false))
        var parts = [
            FormPart(name: "eventId", content: .text(photo.eventID)),
            FormPart(name: "filename", content: .text(photo.filename)),
            FormPart(name: "mediaType", content: .text(photo.mediaType)),
            FormPart(name: "photos", content: .text(description.photosField)),
            FormPart(
                name: "file",
                content: photo.original.map { .bytes($0) } ?? photo.content.map { .content($0) }
                    ?? .file(path: photo.path, size: photo.size),
                filename: photo.filename,
                contentType: photo.mediaType),
        ]
        if !photo.thumbnail500.isEmpty {
            parts.append(
                FormPart(
                    name: "thumbnail_500", content: .bytes(photo.thumbnail500), filename: "thumbnail_500.jpg",
                    contentType: "image/jpeg"))
        }
        if !photo.thumbnail200.isEmpty {
            parts.append(
                FormPart(
                    name: "thumbnail_200", content: .bytes(photo.thumbnail200), filename: "thumbnail_200.jpg",
                    contentType: "image/jpeg"))
        }
        let url = self.address.baseURL + "/api/mobile-upload"
        let response = try await self.send(kind: .upload) { token in
            HTTPRequest(method: .post, url: url, headers: Self.auth(token), body: .multipart(parts))
        }
        if response.status == 409 || PhotoShareDecoding.answer(response.body).duplicate == true { return .duplicate }
        guard response.status == 200 else { throw Self.failure(response, doing: "uploading") }
        self.statistics.withLock { $0.bytesUploaded += photo.size }
        return .uploaded
    }

    /// Sends a request with a token of `kind`, retrying what may be retried; returns the first
    /// answer that is final (success or not).
    func send(kind: TokenKind, _ make: (String) -> HTTPRequest) async throws(IngestError) -> HTTPResponse {
        var token = try await self.tokens.token(kind)
        var attempt = 0
        var probes = 0
        var refreshed = false
        // Every try of one request carries the same key: a server can tell a retry from a new request.
        let idempotencyKey = UUID().uuidString
        while true {
            try self.breaker.check()
            self.statistics.withLock { $0.requests += 1 }
            var request = make(token)
            request.headers.append(("Idempotency-Key", idempotencyKey))
            let started = ContinuousClock.now
            let reason: String
            let retryAfter: String?
            let probing: Bool
            switch try self.judge(await self.transport.perform(request), startedAt: started) {
            case .final(let response):
                return response
            case .unauthorized(let response):
                // One fresh token per request: a second refusal is the token's, not its age.
                guard !refreshed, let fresh = try await self.tokens.replacement(for: token, kind: kind) else {
                    throw IngestError(
                        .tokenRefused,
                        "the server refused the \(kind.rawValue) token (401\(Self.detail(response))); "
                            + "check \(self.tokens.origin.of(kind))")
                }
                token = fresh
                refreshed = true
                continue
            case .again(let why, let after, let probe):
                (reason, retryAfter, probing) = (why, after, probe)
            }
            if self.stopping.load(ordering: .relaxed) { throw Self.stoppedError }
            // A probe of a server that answers no one is the breaker's to judge, and costs no retry.
            guard attempt < self.retry.retries || probing else {
                throw IngestError(.uploadFailed, "\(reason), after \(attempt) \(attempt == 1 ? "retry" : "retries")")
            }
            let delay: TimeInterval
            if probing {
                delay = min(self.retry.delay(attempt: probes, retryAfter: nil), self.breaker.longestProbeWait)
                probes += 1
            } else {
                delay = self.retry.delay(attempt: attempt, retryAfter: retryAfter)
                attempt += 1
            }
            self.statistics.withLock { $0.retries += 1 }
            try? await Task.sleep(for: .milliseconds(Int(delay * 1_000)))
        }
    }

    /// What one try of a request came to.
    enum Try {
        /// An answer to return, success or not.
        case final(HTTPResponse)
        /// 401: the token was refused.
        case unauthorized(HTTPResponse)
        /// Worth another try (after `retryAfter`, when the server said), or a probe of a server
        /// that answers no one.
        case again(reason: String, retryAfter: String?, probing: Bool)
    }

    /// Judges one try's result, telling the circuit breaker whether the server answered.
    ///
    /// - Throws: when the run is stopping, the request was refused before it was sent, or the
    ///   breaker has opened.
    func judge(
        _ result: Result<HTTPResponse, TransportError>, startedAt started: ContinuousClock.Instant
    ) throws(IngestError) -> Try {
        switch result {
        case .failure(let error):
            // After Ctrl-C a try that got no answer is not retried, and says nothing of the server.
            if error.code == HTTPTransport.abandonedCode || self.stopping.load(ordering: .relaxed) {
                throw Self.stoppedError
            }
            if error.code == HTTPTransport.refusedCode { throw IngestError(.uploadRejected, error.message) }
            var probing = false
            if CircuitBreaker.isUnanswered(error) {
                switch self.breaker.unanswered(error, tryStartedAt: started) {
                case .open: try self.breaker.check()
                case .probe: probing = true
                case .retry: break
                }
            }
            return .again(reason: "network error: \(error.message)", retryAfter: nil, probing: probing)
        case .success(let response):
            self.breaker.answered(tryStartedAt: started)
            if response.status == 401 { return .unauthorized(response) }
            guard RetryPolicy.isRetryable(status: response.status) else { return .final(response) }
            return .again(
                reason: "HTTP \(response.status)\(Self.detail(response))", retryAfter: response.headers["retry-after"],
                probing: false)
        }
    }

    static let stoppedError = IngestError(
        .stopped, "stopped by Ctrl-C before the request finished; the next run does it")

    static func auth(_ token: String) -> [(String, String)] { [("Authorization", "Bearer " + token)] }

    /// The server's own words for an error, if its body has them: `": message"`.
    static func detail(_ response: HTTPResponse) -> String {
        let answer = PhotoShareDecoding.answer(response.body)
        guard let message = answer.error ?? answer.message, !message.isEmpty else { return "" }
        return ": " + String(message.prefix(300))
    }

    static func failure(_ response: HTTPResponse, doing what: String) -> IngestError {
        let code: IngestError.Code = RetryPolicy.isRetryable(status: response.status) ? .uploadFailed : .uploadRejected
        return IngestError(code, "\(what) failed: HTTP \(response.status)\(self.detail(response))")
    }

    /// RFC 3339 in UTC with `Z`, whole seconds: what the form's `dateTaken` carries.
    static func rfc3339Seconds(_ date: Date) -> String {
        RFC3339.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
