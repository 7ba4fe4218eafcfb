#include <sys/vfs.h>

#include "CFileSystemShim.h"

int ingest_statfs_type(const char *path, long *type) {
    struct statfs info;
    int status = statfs(path, &info);
    *type = (long)info.f_type;
    return status;
}
