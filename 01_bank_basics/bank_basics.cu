/* Chapter 01: shared-memory banks.
 *
 * One kernel, 160 variants: every lane of every warp reads shared memory at
 *     lane * stride * width + j * step bytes    (j = 0 .. UNROLL-1, over and over)
 * for width 1, 2, 4, 8 or 16 bytes and stride 1..32 elements, step = max(width, 4). The model
 * (common/model/smem_model) predicts the wavefronts each warp load needs; the benchmark measures
 * how long the loads take and how many bytes each multiprocessor delivers per clock. Adding j *
 * step moves every lane by the same whole number of banks, which leaves the conflict pattern
 * unchanged: one prediction per variant. The kernel is strided_read<W> (strided_read.cuh); the
 * tables, the CSV and the summary are bank_report.c's.
 *
 * File layout: variants, CPU reference, launcher, check, benchmark, main. */
#include "strided_read.cuh"
#include "strided_read.h"
#include "host/bench.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/rng.h"
#include "host/variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const course_cli CLI = {
    "01_bank_basics",
    "Shared-memory banks: strided loads of 1, 2, 4, 8 and 16 bytes; the model's wavefronts and\n"
    "the measured cost, side by side.",
    "loop iterations per thread at widths 1, 2 and 4; width W > 4 runs N*4/W, so that every "
    "width needs the same conflict-free wavefronts",
    3000,
    15,
    1000000,
    0, /* no --shape */
    0,
    0, /* --size from 1 */
    {NULL} /* no side files beside --csv */};

/* ---------------------------------------------------------------- variants */

/* Variant wW_sS, kernel N0 + S. */
#define STRIDED(W, N0, S)                                                                          \
    {                                                                                              \
        .v = {.name = "w" #W "_s" #S,                                                              \
              .number = N0 + S,                                                                    \
              .description = #W "-byte loads, stride " #S,                                         \
              .kernel = (const void*)strided_read<W>,                                              \
              .needs = {.dynamic_smem = footprint_words(W, S) * sizeof(unsigned),                  \
                        .threads = BENCH_THREADS}},                                                \
        .width = W, .stride = S                                                                    \
    }

/* The 32 strides of width W, kernels N0 + 1 to N0 + 32. */
#define STRIDES(W, N0)                                                                             \
    STRIDED(W, N0, 1), STRIDED(W, N0, 2), STRIDED(W, N0, 3), STRIDED(W, N0, 4), STRIDED(W, N0, 5), \
        STRIDED(W, N0, 6), STRIDED(W, N0, 7), STRIDED(W, N0, 8), STRIDED(W, N0, 9),                \
        STRIDED(W, N0, 10), STRIDED(W, N0, 11), STRIDED(W, N0, 12), STRIDED(W, N0, 13),            \
        STRIDED(W, N0, 14), STRIDED(W, N0, 15), STRIDED(W, N0, 16), STRIDED(W, N0, 17),            \
        STRIDED(W, N0, 18), STRIDED(W, N0, 19), STRIDED(W, N0, 20), STRIDED(W, N0, 21),            \
        STRIDED(W, N0, 22), STRIDED(W, N0, 23), STRIDED(W, N0, 24), STRIDED(W, N0, 25),            \
        STRIDED(W, N0, 26), STRIDED(W, N0, 27), STRIDED(W, N0, 28), STRIDED(W, N0, 29),            \
        STRIDED(W, N0, 30), STRIDED(W, N0, 31), STRIDED(W, N0, 32)

/* The lesson's kernels, by number (README.md, "Kernels"). */
static bank_variant VARIANTS[] = {STRIDES(1, 0), STRIDES(2, 32), STRIDES(4, 64), STRIDES(8, 96),
                                  STRIDES(16, 128)};

enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* ---------------------------------------------------------------- CPU reference */

/* The sum a thread in lane `lane` returns after `iters` iterations: the words it loads, or the
 * byte or half of a word at 1 and 2 bytes (little-endian, as the GPU stores them). */
static unsigned expected_sum(int width, unsigned stride, int iters, unsigned lane, unsigned key) {
    unsigned per_iter = 0;
    for (unsigned j = 0; j < UNROLL; ++j) {
        unsigned first = lane * stride * (unsigned)width + j * step_bytes(width);
        if (width < 4) {
            unsigned shift = 8u * (first % 4u), mask = width == 1 ? 0xffu : 0xffffu;
            per_iter += word_value(first / 4u, key) >> shift & mask;
        } else
            for (unsigned k = 0; k < (unsigned)width / 4u; ++k)
                per_iter += word_value(first / 4u + k, key);
    }
    return per_iter * (unsigned)iters;
}

typedef void (*kernel_fn)(unsigned, int, unsigned, unsigned*, unsigned long long*);

static kernel_fn kernel_for(int width) {
    return width == 1   ? strided_read<1>
           : width == 2 ? strided_read<2>
           : width == 4 ? strided_read<4>
           : width == 8 ? strided_read<8>
                        : strided_read<16>;
}

/* ---------------------------------------------------------------- launcher */

/* The device buffers every launch shares, sized for one full wave of the largest blocks: each
 * thread's sum, and each block's clocks and SM. */
typedef struct {
    course_buffer sums, clocks;
} run_buffers;

typedef struct {
    int width;
    unsigned stride;
    int iters, blocks, threads;
    unsigned key; /* of the shared-memory words: from --seed */
    const run_buffers* b;
} run_config;

static size_t smem_bytes(const run_config* c) {
    return footprint_words(c->width, c->stride) * sizeof(unsigned);
}

static void launch(void* ctx, int rep) {
    (void)rep;
    const run_config* c = (const run_config*)ctx;
    kernel_for(c->width)<<<c->blocks, c->threads, smem_bytes(c)>>>(
        c->stride, c->iters, c->key, (unsigned*)c->b->sums.dev,
        (unsigned long long*)c->b->clocks.dev);
}

/* Blocks of this variant that one SM holds at once. */
static int resident_blocks(const run_config* c) {
    int n = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_for(c->width), c->threads,
                                                             smem_bytes(c)));
    if (n < 1) die("strided_read<%d> does not fit on an SM", c->width);
    return n;
}

static run_buffers run_buffers_alloc(const course_device* dev) {
    int max_threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                      dev->id));
    const size_t max_threads = (size_t)dev->sm_count * (size_t)max_threads_per_sm;
    run_buffers b = {course_buffer_alloc(max_threads * sizeof(unsigned)),
                     course_buffer_alloc(3 * (max_threads / 32) * sizeof(unsigned long long))};
    return b;
}

static void run_buffers_free(run_buffers* b) {
    course_buffer_free(&b->sums);
    course_buffer_free(&b->clocks);
}

/* The first `bytes` of b: what one launch of a buffer sized for the largest writes. */
static course_buffer first_bytes(const course_buffer* b, size_t bytes) {
    course_buffer part = *b;
    part.bytes = bytes;
    return part;
}

/* ---------------------------------------------------------------- check */

/* Poisons the sums, runs one launch, compares every thread's sum with the CPU. Returns the
 * number of wrong threads (and prints the first). */
static int run_and_verify(const run_config* c) {
    const size_t n = (size_t)c->blocks * (size_t)c->threads;
    const course_buffer sums = first_bytes(&c->b->sums, n * sizeof(unsigned));
    course_buffer_poison(&sums);
    launch((void*)c, 0);
    CUDA_CHECK_LAUNCH();
    course_buffer_download(&sums);
    const unsigned* h = (const unsigned*)sums.host;
    int wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned want = expected_sum(c->width, c->stride, c->iters, (unsigned)(i % 32), c->key);
        if (h[i] != want && wrong++ == 0)
            printf("  w%d_s%u: thread %zu returned %08x, expected %08x\n", c->width, c->stride, i,
                   h[i], want);
    }
    return wrong;
}

/* --check: every selected variant at small launch shapes, one of them not a power of two. */
static int check_variants(const bank_variant* sel, int n_sel, unsigned key, const run_buffers* b) {
    static const int shapes[][3] = {/* blocks, iterations, threads */
                                    {1, 1, 32},
                                    {3, 3, CHECK_THREADS},
                                    {2, 2, BENCH_THREADS}};
    int failed = 0;
    for (int v = 0; v < n_sel; ++v) {
        int wrong = 0;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
            run_config c = {.width = sel[v].width,
                            .stride = sel[v].stride,
                            .iters = shapes[s][1],
                            .blocks = shapes[s][0],
                            .threads = shapes[s][2],
                            .key = key,
                            .b = b};
            wrong += run_and_verify(&c);
        }
        failed += wrong != 0;
    }
    printf("check: %d of %d variants correct%s\n", n_sel - failed, n_sel,
           failed ? " (reproduce with the --seed above)" : "");
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* ---------------------------------------------------------------- benchmark */

/* Bytes per clock per SM of the last launch: for each SM, the bytes its blocks read over the
 * cycles from its first block's start to its last block's end; averaged over the SMs. */
static double bytes_per_clock(const run_config* c, const course_device* dev) {
    const size_t sms = (size_t)dev->sm_count;
    const course_buffer clocks =
        first_bytes(&c->b->clocks, 3 * (size_t)c->blocks * sizeof(unsigned long long));
    course_buffer_download(&clocks);
    const unsigned long long* h = (const unsigned long long*)clocks.host;
    unsigned long long* first = (unsigned long long*)calloc(sms, sizeof *first);
    unsigned long long* last = (unsigned long long*)calloc(sms, sizeof *last);
    int* blocks_on = (int*)calloc(sms, sizeof *blocks_on);
    if (!first || !last || !blocks_on) die("out of host memory");
    for (int b = 0; b < c->blocks; ++b) {
        unsigned long long start = h[3 * b], end = h[3 * b + 1];
        size_t sm = (size_t)h[3 * b + 2];
        if (sm >= sms) die("block %d reported SM %zu of %zu", b, sm, sms);
        if (!blocks_on[sm] || start < first[sm]) first[sm] = start;
        if (!blocks_on[sm] || end > last[sm]) last[sm] = end;
        ++blocks_on[sm];
    }
    double bytes_per_block = (double)c->threads * c->iters * UNROLL * c->width;
    double sum = 0;
    int used = 0;
    for (size_t sm = 0; sm < sms; ++sm) {
        if (!blocks_on[sm]) continue;
        sum += bytes_per_block * blocks_on[sm] / (double)(last[sm] - first[sm]);
        ++used;
    }
    free(first);
    free(last);
    free(blocks_on);
    return used ? sum / used : 0;
}

/* Each variant's benchmark into m[i] (its time, bytes per clock, slowdown against stride 1 of its
 * width where sel holds it), each result verified. */
static int bench_variants(const course_device* dev, const course_args* args,
                          const bank_variant* sel, int n_sel, measurement* m, unsigned key,
                          const run_buffers* b) {
    for (int w = 0; w < N_WIDTHS; ++w) {
        char name[32];
        snprintf(name, sizeof name, "strided_read<%d>", WIDTHS[w]);
        bench_warn_if_spilling((const void*)kernel_for(WIDTHS[w]), name);
    }
    int failed = 0;
    for (int i = 0; i < n_sel; ++i) {
        run_config c = {.width = sel[i].width,
                        .stride = sel[i].stride,
                        .iters = (int)(args->size * 4 / (int)step_bytes(sel[i].width)),
                        .blocks = 0,
                        .threads = BENCH_THREADS,
                        .key = key,
                        .b = b};
        if (c.iters < 1) c.iters = 1;
        c.blocks = resident_blocks(&c) * dev->sm_count; /* exactly one full wave */
        m[i].x = sel[i];
        m[i].model_wf = model_wavefronts(sel[i].width, sel[i].stride);
        m[i].ideal_wf = model_wavefronts(sel[i].width, 1);
        m[i].t = bench_run(launch, &c, 2, (int)args->reps, 1);
        m[i].bytes_per_clk_sm = bytes_per_clock(&c, dev);
        /* A benchmark is not a test, but a wrong result would make its time meaningless. */
        m[i].launches = m[i].t.launches + 1;
        if (run_and_verify(&c)) {
            printf("  %s: benchmark result wrong\n", sel[i].v.name);
            failed = 1;
        }
    }
    for (int i = 0; i < n_sel; ++i) {
        m[i].slowdown = NAN;
        for (int j = 0; j < n_sel; ++j)
            if (m[j].x.width == m[i].x.width && m[j].x.stride == 1)
                m[i].slowdown = m[i].t.median_ms / m[j].t.median_ms;
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* ---------------------------------------------------------------- main */

/* The stride-1 variant of this width in r[0..n), or NULL. */
static const bank_variant* stride_one(const bank_variant* r, int n, int width) {
    for (int i = 0; i < n; ++i)
        if (r[i].width == width && r[i].stride == 1) return &r[i];
    return NULL;
}

/* The variants of all[0..n) this run measures: the one named with --variant, else every one;
 * and, unless only checking, the stride-1 variant of each one's width (a slowdown needs it
 * measured in the same run). Returns how many are in sel (room for n). */
static int select_variants(const course_args* a, const bank_variant* all, int n,
                           bank_variant* sel) {
    int n_sel = 0;
    for (int i = 0; i < n; ++i)
        if (course_variant_selected(a, &all[i].v)) sel[n_sel++] = all[i];
    for (int i = 0; !a->check && i < n_sel; ++i) {
        const bank_variant* base = stride_one(all, n, sel[i].width);
        if (base && !stride_one(sel, n_sel, sel[i].width)) sel[n_sel++] = *base;
    }
    return n_sel;
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    course_variants table = course_variants_of(VARIANTS, sizeof VARIANTS[0], N_VARIANTS);
    const int lesson = !args.check && !args.bench && !args.list;
    /* The lesson's tables first, also on a machine without a GPU; an unknown --variant is
     * course_variants_begin's usage error. */
    if (lesson && (!args.variant || course_find_variant(&table, args.variant) >= 0))
        print_model_tables();
    course_device dev;
    course_target target;
    rc = course_variants_begin(&CLI, &args, &table, "the shared-memory benchmark", &dev, &target);
    if (rc >= 0) return rc;

    bank_variant sel[N_VARIANTS];
    const int n_sel = select_variants(&args, VARIANTS, table.n, sel);
    run_buffers b = run_buffers_alloc(&dev);
    /* The words' key: every run draws fresh data, and --seed reproduces a run's. */
    unsigned long long seed = args.seed;
    unsigned key = rng_u32(&seed);
    printf("random words from --seed %llu\n", args.seed);
    rc = EXIT_OK;
    if (args.check || lesson) rc = check_variants(sel, n_sel, key, &b);
    if (rc == EXIT_OK && !args.check) {
        measurement* m = (measurement*)calloc((size_t)n_sel, sizeof *m);
        if (!m) die("out of host memory");
        rc = bench_variants(&dev, &args, sel, n_sel, m, key, &b);
        print_measurements(m, n_sel);
        if (args.csv) write_csv(args.csv, &dev, &args, m, n_sel);
        if (lesson) print_summary(&dev, CLI.program, m, n_sel);
        free(m);
    }
    run_buffers_free(&b);
    return rc;
}
