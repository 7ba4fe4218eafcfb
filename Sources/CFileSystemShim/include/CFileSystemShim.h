#pragma once

/// statfs(2)'s f_type for `path` into `type`; returns statfs's status (0, or -1 with errno).
/// Swift's Glibc module does not bring <sys/vfs.h>.
int ingest_statfs_type(const char *path, long *type);

/// Starts writing the file's dirty pages to the disk without waiting (sync_file_range(2) with
/// SYNC_FILE_RANGE_WRITE); returns its status. Swift's Glibc module does not bring the GNU call.
int ingest_start_writeback(int fd);

/// open(2) with O_DIRECT added to `flags`, which Swift's Glibc module does not bring: writes that
/// go from the caller's memory to the disk, not through the page cache. Returns the descriptor or -1.
int ingest_open_uncached(const char *path, int flags, unsigned int mode);

/// Clears O_DIRECT on the open file (fcntl F_SETFL): later writes go through the page cache.
int ingest_stop_uncached(int fd);
