#pragma once

/// statfs(2)'s f_type for `path` into `type`; returns statfs's status (0, or -1 with errno).
/// Swift's Glibc module does not bring <sys/vfs.h>.
int ingest_statfs_type(const char *path, long *type);
