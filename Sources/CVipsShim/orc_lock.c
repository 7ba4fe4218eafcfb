#define _GNU_SOURCE
#include "CVipsShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// ORC before 0.4.34 hands out, splits and merges the chunks of its executable memory without a
// lock (fixed upstream in orc e48fa54; Debian 12 has 0.4.33). libvips before 8.15 compiles an ORC
// program for each resize it builds and frees it with the operation, so two workers making
// thumbnails at once can corrupt the heap (glibc's "malloc_consolidate(): unaligned fastbin chunk
// detected") or run code another thread is writing (SIGSEGV): issue 32, about one run in a hundred.
//
// These two definitions are exported by the executable (Package.swift), so that libvips's calls
// bind to them ahead of ORC's own, and they run ORC's compile and free one at a time, as ORC
// 0.4.34 does. Turning ORC off instead costs a sixth more CPU a thumbnail (docs/reliability.md).
// Recursive: ORC's own functions call both, and may reach here again on the same thread.
static pthread_mutex_t ingest_orc_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
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
