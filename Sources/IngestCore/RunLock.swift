import Foundation
import IngestCore

/// A run's hold on a catalog or an archive: an `flock` on a lock file beside it, which the kernel
/// lets go of when the process ends, however it ends. The holder writes its pid and start time
/// into the file, so that another run can say whom it waits for.
///
/// Exclusive for a whole run; shared for the runs of a sharded import, which write disjoint
/// files into one archive and may share it, while a whole run waits for all of them.
public final class RunLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Who holds a lock, as written in its file.
    public struct Holder: Sendable, CustomStringConvertible {
        public var pid: Int32?
        public var started: String?

        public var description: String {
            guard let pid else { return "another photoingest run" }
            return "the photoingest run with pid \(pid)" + (self.started.map { ", started \($0)," } ?? "")
        }
    }

    /// Takes the lock at `path` (creating the file), waiting while another run holds it unless
    /// `wait` is false. `waiting` is called once, with the holder, when the lock is taken.
    ///
    /// - Throws: ``IngestError`` `.busy` when another run holds it and `wait` is false;
    ///   `.invalidConfiguration` when the lock file cannot be created.
    public init(
        path: String, what: String, shared: Bool = false, wait: Bool, waiting: (Holder) -> Void = { _ in }
    ) async throws(IngestError) {
        self.path = path
        let descriptor: Int32
        do {
            descriptor = try OpenFile(path, O_RDWR | O_CREAT, permissions: 0o644).raw
        } catch {
            throw IngestError(.invalidConfiguration, "cannot create the lock file \(path) for \(what): \(error)")
        }
        self.descriptor = descriptor
        let operation = shared ? LOCK_SH : LOCK_EX
        var told = false
        while flock(descriptor, operation | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else {
                let reason = FileSystem.lastError
                close(descriptor)
                throw IngestError(.invalidConfiguration, "cannot lock \(path) for \(what): \(reason)")
            }
            let holder = Self.holder(descriptor)
            guard wait else {
                close(descriptor)
                throw IngestError(
                    .busy, "\(holder) is using \(what); let it finish, or run without --no-wait to wait for it")
            }
            if !told {
                waiting(holder)
                told = true
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        // Shared holders write too: a run waiting for them names one of them.
        let text = "\(getpid()) \(RFC3339.format(Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        // Closing the descriptor releases the lock; the file stays, so that no run ever locks a
        // file another has just unlinked.
        close(self.descriptor)
    }

    /// The lock file beside a catalog or another file a run holds.
    public static func path(guarding file: String) -> String { file + ".lock" }

    /// Who holds the lock at `path` now, without taking it; nil when no run does (or there is no
    /// lock file: no run ever used what it guards).
    public static func holder(of path: String) -> Holder? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A shared lock is refused only while a run holds it exclusively.
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK ? Self.holder(descriptor) : nil
        }
        flock(descriptor, LOCK_UN)
        return nil
    }

    static func holder(_ descriptor: Int32) -> Holder {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        let fields = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        return Holder(pid: fields.first.flatMap { Int32($0) }, started: fields.count > 1 ? String(fields[1]) : nil)
    }
}
