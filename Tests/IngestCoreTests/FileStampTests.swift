import Foundation
import IngestCore
import Testing

@Suite struct FileStampTests {
    let recorded = FileStamp(size: 10, modifiedNanoseconds: 1_000_000_000, inode: 7, changedNanoseconds: 5)

    @Test("A moved ctime is a change, even with size, mtime and inode as they were; a moved mtime, size or inode too")
    func anyPartMovedIsAChange() {
        var now = self.recorded
        #expect(now.isUnchanged(since: self.recorded))
        now.changedNanoseconds = 6
        #expect(!now.isUnchanged(since: self.recorded))
        for change in [\FileStamp.size, \.modifiedNanoseconds] {
            var moved = self.recorded
            moved[keyPath: change] += 1
            #expect(!moved.isUnchanged(since: self.recorded))
        }
        var relinked = self.recorded
        relinked.inode += 1
        #expect(!relinked.isUnchanged(since: self.recorded))
    }

    @Test("A row of an older catalog knows no ctime: it matches whatever ctime the file has now")
    func anUnknownCtimeMatches() {
        let older = FileStamp(size: 10, modifiedNanoseconds: 1_000_000_000, inode: 7)
        #expect(self.recorded.isUnchanged(since: older))
        var moved = self.recorded
        moved.modifiedNanoseconds += 1
        #expect(!moved.isUnchanged(since: older))
    }

    @Test("stat's ctime is kept, to the nanosecond")
    func statGivesTheCtime() throws {
        var status = stat()
        #expect(stat("/", &status) == 0)
        let stamp = FileStamp(status)
        #expect(
            stamp.changedNanoseconds == Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }
}
