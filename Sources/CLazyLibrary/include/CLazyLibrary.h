#ifndef INGEST_CLAZY_LIBRARY_H
#define INGEST_CLAZY_LIBRARY_H

// Shared libraries opened on first use instead of at start-up. libvips and FFmpeg bring about 150
// libraries with them, and linking those costs every run 45 ms before main, runs that never decode
// anything (a nightly re-run, --help, report) included.
//
// On x86_64 each function the program calls is a trampoline of the same name that jumps through a
// table; ingest_lazy_open fills the table. The trampolines are hidden, so the libraries never see
// them, and the linker (--as-needed) then leaves the libraries out of the executable. On other
// architectures there are no trampolines: the libraries are linked as usual and opening is a no-op.
#include <stddef.h>

// Opens `sonames` (RTLD_NOW | RTLD_GLOBAL) and looks each of `names` up in them, into `symbols`.
// Returns 0, or -1 with the reason in `error`. Not thread-safe: call it once, before any trampoline.
int ingest_lazy_open(const char *const sonames[], size_t library_count, const char *const names[], void *symbols[],
                     size_t count, char *error, size_t error_size);

// What a trampoline jumps to before its library is open: a message, and abort.
void ingest_lazy_unopened(void);

#if defined(__x86_64__)
#define INGEST_LAZY_TRAMPOLINES 1
// A function `name` that jumps to `table[index]`, arguments untouched (varargs included).
#define INGEST_LAZY_TRAMPOLINE(table, index, name)                                                                 \
    __asm__(".pushsection .text, \"ax\", @progbits\n.globl " #name "\n.hidden " #name "\n.type " #name          \
            ", @function\n.p2align 4\n" #name ":\n\tjmp *" #table "+8*" #index "(%rip)\n.size " #name ", .-" #name \
            "\n.popsection\n");
#else
#define INGEST_LAZY_TRAMPOLINES 0
#define INGEST_LAZY_TRAMPOLINE(table, index, name)
#endif

#define INGEST_LAZY_NAME(table, index, name) #name,
#define INGEST_LAZY_ONE(table, index, name) +1

// For an X-macro list FUNCTIONS(X, table) of X(table, index, name) entries: `table` (what the
// trampolines jump through, unopened until ingest_lazy_open fills it), `table##_names`,
// `table##_count`, and a trampoline for each function.
#define INGEST_LAZY_FUNCTIONS(table, FUNCTIONS)                                                                     \
    enum { table##_count = 0 FUNCTIONS(INGEST_LAZY_ONE, table) };                                                  \
    static const char *const table##_names[] = {FUNCTIONS(INGEST_LAZY_NAME, table)};                              \
    __attribute__((used, visibility("hidden"))) void *table[table##_count] = {                                     \
        [0 ... table##_count - 1] = (void *)ingest_lazy_unopened};                                                  \
    FUNCTIONS(INGEST_LAZY_TRAMPOLINE, table)

#endif
