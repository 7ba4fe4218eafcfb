import Foundation
import IngestContainers
import IngestCore
import IngestHashing
import MultipartKit
import NIOCore

/// The upload form, parsed as it streams in: small fields in memory, the `file` part straight
/// to a temporary file and hashed on the way, the thumbnails in memory (they are small).
///
/// Nothing is buffered whole but what the limits allow; a part that is too big fails the form.
final class UploadForm {
    private let parser: MultipartParser
    private let temporaryPath: String
    private let limits: Limits

    struct Limits {
        var fieldBytes = 1 << 20
        var thumbnailBytes = 16 << 20
    }

    private(set) var fields: [String: String] = [:]
    private(set) var thumbnails: [String: [UInt8]] = [:]
    private(set) var fileSize = 0
    private(set) var fileHead: [UInt8] = []
    private(set) var hasFile = false
    private var hasher = ContentHasher()
    private var descriptor: Int32 = -1
    /// The file part's bytes not yet written. The parser hands the body over in pieces that end
    /// at every byte that could begin a boundary (in a JPEG, thousands per photo); writing each
    /// piece cost a system call and most of the server's time.
    private var pending: [UInt8] = []
    private static let pendingLimit = 1 << 20
    private var failure: String?

    // The part being read.
    private var headers: [String: String] = [:]
    private var sink: Sink?
    private var fieldBuffer: [UInt8] = []

    private enum Sink {
        case field(String)
        case file
        case thumbnail(String)
        case ignored
    }

    init(boundary: String, temporaryPath: String, limits: Limits = Limits()) {
        self.parser = MultipartParser(boundary: boundary)
        self.temporaryPath = temporaryPath
        self.limits = limits
        self.parser.onHeader = { [unowned self] name, value in self.headers[name.lowercased()] = value }
        self.parser.onBody = { [unowned self] buffer in self.body(&buffer) }
        self.parser.onPartComplete = { [unowned self] in self.partComplete() }
    }

    /// Where the file part was written, for the archive to move into place.
    var temporaryPathForArchive: String { self.temporaryPath }

    /// The file's SHA-256, once the form is complete.
    var fileHash: ContentHash { self.hasher.finalize() }

    func feed(_ buffer: ByteBuffer) throws {
        do {
            try self.parser.execute(buffer)
        } catch {
            throw APIError(.badRequest, "malformed multipart body")
        }
        if let failure = self.failure { throw APIError(.badRequest, failure) }
    }

    /// Closes the file part; call after the last buffer.
    func finish() throws {
        self.flush()
        if let failure = self.failure { throw APIError(.badRequest, failure) }
        if self.descriptor >= 0 {
            close(self.descriptor)
            self.descriptor = -1
        }
    }

    /// Removes the temporary file unless it was moved into the archive.
    func discard() {
        if self.descriptor >= 0 { close(self.descriptor) }
        self.descriptor = -1
        unlink(self.temporaryPath)
    }

    private func body(_ buffer: inout ByteBuffer) {
        if self.sink == nil { self.sink = self.decideSink() }
        guard self.failure == nil else { return }
        buffer.withUnsafeReadableBytes { bytes in
            switch self.sink {
            case .field, .thumbnail:
                let limit =
                    self.sink.map {
                        if case .thumbnail = $0 { self.limits.thumbnailBytes } else { self.limits.fieldBytes }
                    } ?? 0
                guard self.fieldBuffer.count + bytes.count <= limit else {
                    self.failure = "a form part is larger than \(limit) bytes"
                    return
                }
                self.fieldBuffer.append(contentsOf: bytes)
            case .file:
                self.writeFile(bytes)
            case .ignored, nil:
                break
            }
        }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
    }

    private func writeFile(_ bytes: UnsafeRawBufferPointer) {
        if self.descriptor < 0 {
            self.descriptor = open(self.temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard self.descriptor >= 0 else {
                self.failure = "cannot store the upload"
                return
            }
        }
        if self.fileHead.count < MediaSniffer.headerLength {
            self.fileHead.append(contentsOf: bytes.prefix(MediaSniffer.headerLength - self.fileHead.count))
        }
        if self.pending.capacity < Self.pendingLimit { self.pending.reserveCapacity(Self.pendingLimit) }
        self.pending.append(contentsOf: bytes)
        self.fileSize += bytes.count
        if self.pending.count >= Self.pendingLimit { self.flush() }
    }

    /// Hashes and writes the pending bytes of the file part.
    private func flush() {
        guard !self.pending.isEmpty, self.failure == nil, self.descriptor >= 0 else { return }
        self.pending.withUnsafeBytes { bytes in
            self.hasher.update(bytes)
            do {
                try OpenFile(descriptor: self.descriptor).writeAll(bytes)
            } catch {
                self.failure = "cannot store the upload: \(error)"
            }
        }
        self.pending.removeAll(keepingCapacity: true)
    }

    private func decideSink() -> Sink {
        guard let disposition = self.headers["content-disposition"],
            let name = ContentDisposition.parameter("name", in: disposition)
        else { return .ignored }
        switch name {
        case "file":
            if self.hasFile {
                self.failure = "more than one file part"
                return .ignored
            }
            self.hasFile = true
            return .file
        case "thumbnail_500", "thumbnail_200": return .thumbnail(name)
        default: return .field(name)
        }
    }

    private func partComplete() {
        if self.sink == nil { self.sink = self.decideSink() }
        switch self.sink {
        case .field(let name): self.fields[name] = String(decoding: self.fieldBuffer, as: UTF8.self)
        case .thumbnail(let name): self.thumbnails[name] = self.fieldBuffer
        case .file:
            // An empty file part never calls onBody: create the (empty) file all the same.
            if self.descriptor < 0 { self.writeFile(UnsafeRawBufferPointer(start: nil, count: 0)) }
            self.flush()
        case .ignored, nil: break
        }
        self.headers = [:]
        self.sink = nil
        self.fieldBuffer = []
    }
}

/// Reads parameters of a `Content-Disposition` header, undoing both escapings clients use in
/// quoted values: backslashes (RFC 7578) and percent-encoded `"`, CR and LF (HTML5, curl's default).
enum ContentDisposition {
    static func parameter(_ wanted: String, in header: String) -> String? {
        var index = header.startIndex
        while let semicolon = header[index...].firstIndex(of: ";") {
            index = header.index(after: semicolon)
            while index < header.endIndex, header[index] == " " { index = header.index(after: index) }
            guard let equals = header[index...].firstIndex(of: "=") else { return nil }
            let name = header[index..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var cursor = header.index(after: equals)
            var value = ""
            if cursor < header.endIndex, header[cursor] == "\"" {
                cursor = header.index(after: cursor)
                while cursor < header.endIndex, header[cursor] != "\"" {
                    if header[cursor] == "\\", header.index(after: cursor) < header.endIndex {
                        cursor = header.index(after: cursor)
                    }
                    value.append(header[cursor])
                    cursor = header.index(after: cursor)
                }
                if cursor < header.endIndex { cursor = header.index(after: cursor) }
            } else {
                let end = header[cursor...].firstIndex(of: ";") ?? header.endIndex
                value = String(header[cursor..<end]).trimmingCharacters(in: .whitespaces)
                cursor = end
            }
            if name == wanted {
                return value.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                    .replacingOccurrences(of: "%0A", with: "\n")
            }
            index = cursor
        }
        return nil
    }
}
