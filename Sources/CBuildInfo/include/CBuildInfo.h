#pragma once

/// The release and the commit this binary was built from, as "0.6.0 (commit 0123456789ab)".
const char *ingest_build_version(void);
