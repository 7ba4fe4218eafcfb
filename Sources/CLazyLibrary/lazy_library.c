#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void ingest_lazy_unopened(void) {
    fputs("photoingest: a library function was called before its library was opened\n", stderr);
    abort();
}

int ingest_lazy_open(const char *const sonames[], size_t library_count, const char *const names[], void *symbols[],
                     size_t count, char *error, size_t error_size) {
    if (!INGEST_LAZY_TRAMPOLINES) return 0;
    void *handles[8];
    if (library_count > 8) {
        snprintf(error, error_size, "at most 8 libraries are opened together");
        return -1;
    }
    for (size_t library = 0; library < library_count; library++) {
        handles[library] = dlopen(sonames[library], RTLD_NOW | RTLD_GLOBAL);
        if (!handles[library]) {
            snprintf(error, error_size, "%s", dlerror());
            return -1;
        }
    }
    for (size_t index = 0; index < count; index++) {
        void *found = NULL;
        for (size_t library = 0; library < library_count && !found; library++) found = dlsym(handles[library], names[index]);
        if (!found) {
            snprintf(error, error_size, "%s (and what it opened) has no %s", sonames[0], names[index]);
            return -1;
        }
        symbols[index] = found;
    }
    return 0;
}
