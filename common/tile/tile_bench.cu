#include "tile/tile_bench.h"

#include "host/buffers.h"
#include "host/check.h"
#include "host/rng.h"
#include "tile/tile_transpose.cuh"

#include <math.h>
#include <stdio.h>

/* A variant's input, output and per-thread sums for `blocks` tiles, on the host and the device;
 * the input filled with random bytes from *seed and uploaded. */
typedef struct {
    course_buffer in, out, sums;
    int blocks;
} tile_buffers;

static tile_buffers buffers_alloc(const tile_kernel* t, int blocks, unsigned long long* seed) {
    const size_t bytes = (size_t)blocks * t->rows * t->cols * t->elem_bytes;
    tile_buffers b = {course_buffer_alloc(bytes), course_buffer_alloc(bytes),
                      course_buffer_alloc((size_t)blocks * TILE_THREADS * sizeof(unsigned)),
                      blocks};
    unsigned char* in = (unsigned char*)b.in.host;
    for (size_t i = 0; i < bytes; ++i) in[i] = (unsigned char)rng_u32(seed);
    course_buffer_upload(&b.in);
    return b;
}

static void buffers_free(tile_buffers* b) {
    course_buffer_free(&b->in);
    course_buffer_free(&b->out);
    course_buffer_free(&b->sums);
}

/* Poison, launch once, download, compare with the CPU. */
static size_t run_and_verify(const tile_kernel* t, const tile_buffers* b, int iters) {
    course_buffer_poison(&b->out);
    course_buffer_poison(&b->sums);
    t->launch(b->blocks, b->in.dev, b->out.dev, iters, (unsigned*)b->sums.dev);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&b->out);
    course_buffer_download(&b->sums);
    return t->verify(b->in.host, b->out.host, (const unsigned*)b->sums.host, b->blocks, iters);
}

size_t tile_check(const tile_variant* x, unsigned long long* seed) {
    static const int shapes[][2] = {{1, 1}, {3, 2}}; /* blocks, loop iterations */
    size_t wrong = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        tile_buffers b = buffers_alloc(&x->tile, shapes[s][0], seed);
        wrong += run_and_verify(&x->tile, &b, shapes[s][1]);
        buffers_free(&b);
    }
    return wrong;
}

typedef struct {
    const tile_kernel* t;
    const tile_buffers* b;
    int iters;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    (void)rep;
    const bench_ctx* c = (const bench_ctx*)p;
    c->t->launch(c->b->blocks, c->b->in.dev, c->b->out.dev, c->iters, (unsigned*)c->b->sums.dev);
}

tile_measurement tile_bench(const tile_variant* x, const course_device* dev, int iters,
                            int timed_reps, unsigned long long* seed) {
    tile_measurement m;
    int per_sm = 0;
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, x->v.kernel, TILE_THREADS, 0));
    if (per_sm < 1) die("%s does not fit on an SM", x->v.name);
    m.blocks = per_sm * dev->sm_count; /* one full wave */
    bench_warn_if_spilling(x->v.kernel, x->v.name);
    tile_buffers b = buffers_alloc(&x->tile, m.blocks, seed);
    bench_ctx c = {&x->tile, &b, iters};
    m.t = bench_run(bench_launch, &c, 2, timed_reps, 1);
    m.wrong = run_and_verify(&x->tile, &b, iters);
    m.launches = m.t.launches + 1;
    double loads_per_sm = (double)per_sm * TILE_WARPS * iters * tile_unroll(x->tile.elem_bytes);
    m.ns_per_load = m.t.median_ms * 1e6 / loads_per_sm;
    buffers_free(&b);
    return m;
}

int tile_run(tile_variant* r, int n, const course_device* dev, int check, int bench, int iters,
             int timed_reps, unsigned long long seed) {
    int failed = 0;
    printf("random tiles from --seed %llu\n", seed);
    for (int i = 0; i < n; ++i) {
        /* Each variant's own stream: --variant NAME --seed S redraws exactly its tiles. */
        unsigned long long stream = seed;
        for (const char* c = r[i].v.name; *c; ++c)
            stream = (stream ^ (unsigned char)*c) * 1099511628211ull;
        size_t wrong = check ? tile_check(&r[i], &stream) : 0;
        if (bench) {
            r[i].m = tile_bench(&r[i], dev, iters, timed_reps, &stream);
            wrong += r[i].m.wrong;
        }
        if (wrong) {
            printf("  %s: %zu wrong elements or sums\n", r[i].v.name, wrong);
            failed = 1;
        }
    }
    if (check)
        printf("check: %s\n", failed ? "FAILED (reproduce with the --seed above)"
                                     : "every variant's transpose and sums are right");
    for (int i = 0; bench && i < n; ++i) {
        const tile_variant* base = tile_find(r, n, r[i].against);
        r[i].speedup = base ? base->m.t.median_ms / r[i].m.t.median_ms : NAN;
        r[i].model_speedup = base ? (double)base->model.ld / r[i].model.ld : NAN;
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}
