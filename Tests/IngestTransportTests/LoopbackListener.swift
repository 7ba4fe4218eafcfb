import Foundation

/// A request as it arrived on the wire, byte for byte.
struct CapturedRequest: Sendable {
    /// The request line and the header lines, without their CRLFs.
    var headLines: [String]
    var body: [UInt8]

    /// The value of the first header called `name` (case-insensitive).
    func header(_ name: String) -> String? { Self.value(of: name, in: self.headLines.dropFirst()) }

    static func value(of name: String, in lines: some Sequence<String>) -> String? {
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else {
                continue
            }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Whether a line of the head, or of a form part's head, is a header called `name`: what an
    /// injected header would look like to a server.
    func hasHeaderLine(_ name: String) -> Bool {
        let lines = self.headLines + (self.formParts ?? []).flatMap(\.headerLines)
        return lines.contains { $0.lowercased().hasPrefix(name.lowercased() + ":") }
    }

    /// The parts of a `multipart/form-data` body, in order; nil when the body is not such a form.
    var formParts: [CapturedPart]? {
        guard let type = self.header("Content-Type"), type.hasPrefix("multipart/form-data"),
            let marker = type.range(of: "boundary=")
        else { return nil }
        let delimiter = Array("\r\n--\(type[marker.upperBound...])".utf8)
        let crlf = Array("\r\n".utf8)
        // With a CRLF in front, the first boundary looks like every other delimiter.
        let body = crlf + self.body
        guard var start = body.offset(of: delimiter) else { return nil }
        var parts: [CapturedPart] = []
        while true {
            let after = start + delimiter.count
            // "--" after the delimiter closes the form.
            if body[after...].starts(with: Array("--".utf8)) { return parts }
            guard body[after...].starts(with: crlf), let next = body.offset(of: delimiter, from: after),
                let blank = body.offset(of: crlf + crlf, from: after), blank < next
            else { return nil }
            let head = String(decoding: body[(after + crlf.count)..<blank], as: UTF8.self)
            let content = Array(body[(blank + 2 * crlf.count)..<next])
            parts.append(CapturedPart(headerLines: head.components(separatedBy: "\r\n"), content: content))
            start = next
        }
    }
}

/// One part of a captured form: its header lines and its content, byte for byte.
struct CapturedPart: Sendable {
    var headerLines: [String]
    var content: [UInt8]

    var text: String { String(decoding: self.content, as: UTF8.self) }

    func header(_ name: String) -> String? { CapturedRequest.value(of: name, in: self.headerLines) }

    /// The form field's name, unescaped.
    var name: String? { self.dispositionParameter("name") }
    /// The file name in Content-Disposition, unescaped.
    var filename: String? { self.dispositionParameter("filename") }

    /// A quoted Content-Disposition parameter, undoing the escaping libcurl applies by default,
    /// the WHATWG HTML form encoding: `"`, CR and LF as `%22`, `%0D` and `%0A`, nothing else
    /// escaped (so a raw `"` can only be the closing quote).
    func dispositionParameter(_ key: String) -> String? {
        guard let disposition = self.header("Content-Disposition"), let start = disposition.range(of: "; \(key)=\"")
        else { return nil }
        let rest = disposition[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end].replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
            .replacingOccurrences(of: "%0A", with: "\n")
    }
}

/// An HTTP/1.1 listener on 127.0.0.1 (a free port) that records every request's raw bytes and
/// gives each the same answer (by default `200` with `{"success":true}`), then closes the connection.
///
/// It sees exactly what libcurl sent, before any server-side parsing could tidy it up: the
/// place to look for injected header lines. Requests must carry a Content-Length (libcurl sends
/// one for forms whose part sizes are known, which is all of photoingest's).
final class LoopbackListener: Sendable {
    let port: Int
    private let descriptor: Int32
    private let inbox = Inbox()

    /// The requests received so far, in order.
    var requests: [CapturedRequest] { self.inbox.requests }

    /// - Parameters:
    ///   - status: the status of every answer.
    ///   - body: the JSON body of every answer.
    init(status: Int = 200, body: String = #"{"success":true}"#) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ListenerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw ListenerError("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let inbox = self.inbox
        let answer =
            "HTTP/1.1 \(status) Answer\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
        // The thread holds the socket and the inbox, not the listener, so that deinit can stop it.
        Thread { Self.serve(descriptor, answering: Array(answer.utf8), into: inbox) }.start()
    }

    /// Wakes the accepting thread, which then closes the socket and ends.
    deinit { shutdown(self.descriptor, Int32(SHUT_RDWR)) }

    private static func serve(_ descriptor: Int32, answering answer: [UInt8], into inbox: Inbox) {
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            if let request = self.read(connection) {
                // Recorded before answering: once the client has its response, the request is in the inbox.
                inbox.add(request)
                _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(connection)
        }
        close(descriptor)
    }

    /// Reads one request: the head up to the blank line, then Content-Length bytes of body.
    private static func read(_ connection: Int32) -> CapturedRequest? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let blankLine = Array("\r\n\r\n".utf8)
        var head: CapturedRequest?
        var expected = 0
        while true {
            if head == nil, let end = bytes.offset(of: blankLine) {
                let text = String(decoding: bytes[..<end], as: UTF8.self)
                head = CapturedRequest(headLines: text.components(separatedBy: "\r\n"), body: [])
                bytes.removeFirst(end + blankLine.count)
                expected = Int(head?.header("Content-Length") ?? "") ?? 0
            }
            if var request = head, bytes.count >= expected {
                request.body = Array(bytes.prefix(expected))
                return request
            }
            // A client that stops sending must not hold the thread for ever: 5 s of silence ends the read.
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5_000) > 0 else { return nil }
            let got = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { return nil }
            bytes += chunk[..<got]
        }
    }

    private final class Inbox: @unchecked Sendable {
        // @unchecked: `received` is only touched under `lock`.
        private let lock = NSLock()
        private var received: [CapturedRequest] = []
        var requests: [CapturedRequest] { self.lock.withLock { self.received } }
        func add(_ request: CapturedRequest) { self.lock.withLock { self.received.append(request) } }
    }
}

struct ListenerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
    /// Where `needle` first occurs at or after `start`.
    func offset(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first else { return start }
        var index = start
        while index + needle.count <= self.count {
            if self[index] == first && self[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
