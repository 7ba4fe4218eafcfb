#include "CBuildInfo.h"

// Both come from Package.swift, which reads the commit from git when the manifest is evaluated.
const char *ingest_build_version(void) { return PHOTOINGEST_VERSION " (commit " PHOTOINGEST_COMMIT ")"; }
