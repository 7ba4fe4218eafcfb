import Foundation

/// A file system that fills up: a tmpfs of a given size mounted, in a mount namespace of its own,
/// on one folder, for the program run inside it alone (`unshare`, as root or in a user namespace).
public enum SmallFileSystem {
    static var unshare: [String] { ["/usr/bin/unshare", getuid() == 0 ? "-m" : "-rm"] }

    /// A command that mounts `bytes` of tmpfs on `folder` (holding a copy of what the folder held),
    /// then runs `script` (sh) with `arguments` as `$1`…. What it leaves on the tmpfs is gone when
    /// it ends, so the script copies out what the test inspects.
    public static func command(mounting folder: String, bytes: Int, script: String, _ arguments: [String]) -> [String] {
        let mount = """
            seed=$(mktemp -d) && cp -a "$0"/. "$seed"/ && mount -t tmpfs -o size=\(bytes) none "$0" \\
                && cp -a "$seed"/. "$0"/ && rm -rf "$seed" || exit 97

            """
        return Self.unshare + ["/bin/sh", "-c", mount + script, folder] + arguments
    }

    /// Whether this machine lets the tests mount one (not in every container).
    public static let isAvailable: Bool = {
        let folder = TemporaryFolder("mount-probe")
        let result = try? runProgram(
            Self.unshare[0], Array(Self.command(mounting: folder.path, bytes: 1 << 20, script: "true", []).dropFirst()))
        return result?.status == 0
    }()
}
