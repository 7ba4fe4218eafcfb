#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt), for a harness whose `main` SwiftPM names after the target.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
