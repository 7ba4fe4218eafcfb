import Foundation

/// A minimal HTTP/1.1 server on loopback that reads each request whole and answers 200 with no
/// body: what the multipart benchmark uploads to, so that it measures the client alone.
final class HTTPSink: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(listener, $0, length)
                _ = getsockname(listener, $0, &length)
            }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        listen(listener, 16)
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                Thread { Self.serve(connection) }.start()
            }
        }.start()
    }

    deinit { close(self.listener) }

    /// Reads requests (headers, then Content-Length bytes of body) and answers each.
    static func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        while true {
            guard let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: pending) else {
                let got = read(connection, &buffer, buffer.count)
                if got <= 0 { return }
                pending += buffer[0..<got]
                continue
            }
            let head = String(decoding: pending[0..<headerEnd], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            var body = pending.count - headerEnd - 4
            while body < length {
                let got = read(connection, &buffer, buffer.count)
                if got <= 0 { return }
                body += got
            }
            pending = []
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
