#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/vfs.h>

#include "CFileSystemShim.h"

int ingest_statfs_type(const char *path, long *type) {
    struct statfs info;
    int status = statfs(path, &info);
    *type = (long)info.f_type;
    return status;
}

int ingest_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int ingest_open_uncached(const char *path, int flags, unsigned int mode) {
    return open(path, flags | O_DIRECT, mode);
}

int ingest_stop_uncached(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_DIRECT);
}
