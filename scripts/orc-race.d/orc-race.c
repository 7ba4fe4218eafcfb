// Issue 32's cause, alone: threads that build and free libvips resizes at once, so that each
// compiles and frees ORC programs. With ORC before 0.4.34 and nothing else, this corrupts the heap
// within a minute; linked with Sources/CVipsShim/orc_lock.c, which the executables link, it must not.
#include <vips/vips.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static VipsImage *source;
static int rounds;

// Defined by orc_lock.c where it is linked in: how many compiles and frees went through its lock.
__attribute__((weak)) long ingest_orc_serialized_calls(void);

static void *resize(void *argument) {
    int offset = (int)(long)argument;
    for (int round = 0; round < rounds; round++) {
        int edge = 40 + (round % 50) + offset;
        VipsImage *thumbnail;
        if (vips_thumbnail_image(source, &thumbnail, edge, "height", edge, NULL)) {
            fprintf(stderr, "orc-race: %s\n", vips_error_buffer());
            exit(2);
        }
        VipsImage *pixels = vips_image_copy_memory(thumbnail);
        g_object_unref(thumbnail);
        if (!pixels) {
            fprintf(stderr, "orc-race: %s\n", vips_error_buffer());
            exit(2);
        }
        g_object_unref(pixels);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3 || VIPS_INIT(argv[0])) {
        fprintf(stderr, "usage: orc-race THREADS ROUNDS\n");
        return 2;
    }
    // As photoingest sets libvips up (ImagingLibrary.start).
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    int threads = atoi(argv[1]);
    rounds = atoi(argv[2]);
    if (threads < 1 || threads > 64 || rounds < 1) {
        fprintf(stderr, "orc-race: 1 to 64 threads, and at least one round\n");
        return 2;
    }
    VipsImage *noise, *grey, *rgb;
    if (vips_gaussnoise(&noise, 300, 200, "mean", 128.0, NULL) || vips_cast(noise, &grey, VIPS_FORMAT_UCHAR, NULL)
        || vips_bandjoin_const1(grey, &rgb, 0.0, NULL) || !(source = vips_image_copy_memory(rgb))) {
        fprintf(stderr, "orc-race: %s\n", vips_error_buffer());
        return 2;
    }
    pthread_t workers[64];
    for (long index = 0; index < threads; index++) pthread_create(&workers[index], NULL, resize, (void *)index);
    for (int index = 0; index < threads; index++) pthread_join(workers[index], NULL);
    if (ingest_orc_serialized_calls) printf("%ld\n", ingest_orc_serialized_calls());
    return 0;
}
