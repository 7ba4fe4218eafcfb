import CFileSystemShim
import IngestCore

/// The file systems where inotify sees only this machine's writes: shares other machines write
/// to (NFS, SMB/CIFS, 9p, cluster file systems) and FUSE mounts, whose kernel side sees only the
/// writes that pass through it. A watched folder on one of them is polled as well.
public enum BlindFileSystem {
    /// The name of the blind file system `path` lies on; nil where inotify sees every write, or
    /// where `statfs` cannot tell.
    public static func name(at path: String) -> String? {
        var type = 0
        guard PathBytes.withCString(path, { ingest_statfs_type($0, &type) }) == 0 else { return nil }
        return Self.names[type]
    }

    /// `statfs`'s `f_type` of each, from the kernel's `magic.h` and the file systems' own sources.
    static let names: [Int: String] = [
        0x6969: "NFS",
        0x517B: "SMB",
        0xFF53_4D42: "CIFS",
        0xFE53_4D42: "SMB2",
        0x6573_5546: "FUSE",
        0x0102_1997: "9p",
        0x00C3_6400: "Ceph",
        0x5346_414F: "AFS",
        0x6B41_4653: "AFS",
        0x7375_7245: "Coda",
        0x564C: "NCP",
        0x786F_4256: "VirtualBox shared folder",
        0x7461_636F: "OCFS2",
        0x0116_1970: "GFS2",
        0x0BD0_0BD0: "Lustre",
        0x1983_0326: "OrangeFS",
    ]
}
