#define _GNU_SOURCE
#include "CVipsShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// ORC before 0.4.34 hands out, splits and merges the chunks of its executable memory without a
// lock (fixed upstream in orc e48fa54; Debian 12 has 0.4.33). libvips before 8.15 compiles an ORC
// program for each resize it builds, holding its own global lock, and frees it when the operation
// is finalized, holding none. A free racing another free or a compile on another thread can
// corrupt the heap (glibc's "malloc_consolidate(): unaligned fastbin chunk detected") or hand out
// code memory that is still in use (SIGSEGV): issue 32, about one run in a hundred.
//
// These two definitions are exported by the executables (Package.swift), so that libvips's calls
// bind to them ahead of ORC's own, and they run ORC's compile and free one at a time. Upstream
// locks only the code memory inside them; this lock is wider and has the same effect. ORC's calls
// to its own functions bind inside liborc and never come here. Turning ORC off instead costs a
// sixth more CPU a thumbnail (docs/reliability.md).
static pthread_mutex_t ingest_orc_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_long ingest_orc_calls;

static void *ingest_orc_real(const char *name) {
    void *orc = dlopen("liborc-0.4.so.0", RTLD_NOW | RTLD_NOLOAD);
    void *function = orc ? dlsym(orc, name) : NULL;
    if (!function) {
        fprintf(stderr, "photoingest: %s called, but ORC's own is not loaded\n", name);
        abort();
    }
    return function;
}

__attribute__((visibility("default"))) int orc_program_compile(void *program) {
    static int (*compile)(void *);
    pthread_mutex_lock(&ingest_orc_mutex);
    if (!compile) compile = (int (*)(void *))ingest_orc_real("orc_program_compile");
    int result = compile(program);
    pthread_mutex_unlock(&ingest_orc_mutex);
    atomic_fetch_add(&ingest_orc_calls, 1);
    return result;
}

__attribute__((visibility("default"))) void orc_program_free(void *program) {
    static void (*release)(void *);
    pthread_mutex_lock(&ingest_orc_mutex);
    if (!release) release = (void (*)(void *))ingest_orc_real("orc_program_free");
    release(program);
    pthread_mutex_unlock(&ingest_orc_mutex);
    atomic_fetch_add(&ingest_orc_calls, 1);
}

long ingest_orc_serialized_calls(void) { return atomic_load(&ingest_orc_calls); }
