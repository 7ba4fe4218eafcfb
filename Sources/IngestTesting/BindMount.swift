import Foundation

/// A folder mounted again through FUSE with bindfs, for tests of a hot folder on a share: writes
/// into the folder underneath pass by the mount's kernel side, as another machine's writes to an
/// NFS or SMB share do. bindfs runs in the foreground as this process's child (a daemon would
/// keep the test's pipes open); ``unmount()`` ends it.
public final class BindMount: @unchecked Sendable {
    public let source: URL
    public let mountPoint: URL
    private let process = Process()

    /// Mounts `source` at `mountPoint` (both folders exist) and waits until the mount is there.
    public init(_ source: URL, at mountPoint: URL) throws {
        self.source = source
        self.mountPoint = mountPoint
        self.process.executableURL = URL(fileURLWithPath: "/usr/bin/bindfs")
        self.process.arguments = ["-f", source.path, mountPoint.path]
        self.process.standardInput = FileHandle.nullDevice
        self.process.standardOutput = FileHandle.nullDevice
        self.process.standardError = FileHandle.nullDevice
        try self.process.run()
        let deadline = Date().addingTimeInterval(30)
        while !self.isMounted {
            guard self.process.isRunning, Date() < deadline else {
                self.unmount()
                throw MountFailed(path: mountPoint.path)
            }
            usleep(50_000)
        }
    }

    deinit { self.unmount() }

    /// Whether the kernel lists the mount.
    public var isMounted: Bool {
        ((try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? "").contains(
            " \(self.mountPoint.path) fuse")
    }

    /// Unmounts, and waits for bindfs to end.
    public func unmount() {
        if self.isMounted { _ = try? runProgram("umount", [self.mountPoint.path], timeout: 30) }
        if self.process.isRunning { self.process.terminate() }
        self.process.waitUntilExit()
    }

    public struct MountFailed: Error {
        public var path: String
    }
}
