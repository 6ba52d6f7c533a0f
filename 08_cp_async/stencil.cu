/* Chapter 08, part 1 (stencil.h): the stencil's variants, check, benchmark and CSV. */
#include "stencil.h"
#include "stencil_kernels.cuh"
#include "host/bench.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/csv.h"
#include "host/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the variants */

typedef void (*stencil_kernel)(const float*, float*, long long);

typedef struct {
    course_variant v;      /* kernel NULL: cudaMemcpy, the baseline */
    stencil_kernel launch; /* v.kernel, typed */
} stencil_variant;

/* A kernel's row: its function once for the verdicts (v.kernel) and once to launch. */
#define STENCIL(NAME, NUMBER, DESCRIPTION, KERNEL, ARCH, FEATURE)                                  \
    {                                                                                              \
        .v = {.name = NAME,                                                                        \
              .number = NUMBER,                                                                    \
              .description = DESCRIPTION,                                                          \
              .kernel = (const void*)KERNEL,                                                       \
              .needs = {.arch = ARCH, .feature = FEATURE, .threads = STENCIL_NT}},                 \
        .launch = KERNEL                                                                           \
    }

static stencil_variant VARIANTS[] = {
    {.v = {.name = "memcpy",
           .description = "cudaMemcpy device to device of x: the same bytes, nothing computed",
           .baseline = 1,
           .needs = {.threads = STENCIL_NT}}},
    STENCIL("stencil_sync", 1, "staged with plain loads: each tile's latency exposed", stencil_sync,
            0, NULL),
    STENCIL("stencil_async", 2,
            "staged with cp.async (16-byte copies, no registers), then waited for", stencil_async,
            80, "cp.async"),
    STENCIL("stencil_double", 3,
            "two stages: the next tile's copies in flight during this one's math", stencil_double,
            80, "cp.async"),
};
#undef STENCIL
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

course_variants stencil_variants(void) {
    return course_variants_of(VARIANTS, sizeof VARIANTS[0], N_VARIANTS);
}

static const stencil_variant* stencil_at(const course_variants* t, int i) {
    return (const stencil_variant*)course_variant_at(t, i);
}

void stencil_print_lesson(const course_variants* t) {
    course_print_variants(t);
}

static void run_stencil(const stencil_variant* x, const float* in, float* out, long long n,
                        int blocks) {
    if (!x->launch) {
        CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice));
        return;
    }
    x->launch<<<blocks, STENCIL_NT>>>(in, out, n);
}

/* ---------------------------------------------------------------- the check */

/* y by the CPU, in float with the kernels' order of fused multiply-adds: bit for bit theirs. */
static void stencil_reference(const float* x, const float* w, long long n, float* y) {
    for (long long i = 0; i < n; ++i) {
        float acc = 0.0f;
        for (int j = 0; j <= 2 * STENCIL_RADIUS; ++j) {
            const long long at = i - STENCIL_RADIUS + j;
            acc = fmaf(w[j], at >= 0 && at < n ? x[at] : 0.0f, acc);
        }
        y[i] = acc;
    }
}

/* Every stencil selected on n = 1 .. 1000003 (up to max_n), bit for bit, the output poisoned
 * with NaN first. Three blocks, so that a block walks several tiles (and the double buffer turns
 * over) at small n too. */
static int check_stencils(const course_args* a, const course_variants* running, long long max_n) {
    static const long long sizes[] = {1, 7, 8, 1023, 1024, 1025, 4099, 100003, 1000003};
    const int blocks = 3;
    if (a->variant && !strcmp(a->variant, "memcpy")) {
        printf("check: memcpy is cudaMemcpy, the benchmark's baseline: nothing to check\n");
        return 0;
    }
    unsigned long long seed = a->seed;
    float w[2 * STENCIL_RADIUS + 1];
    for (int j = 0; j <= 2 * STENCIL_RADIUS; ++j)
        w[j] = (float)(rng_u32(&seed) / 4294967296.0 - 0.5);
    CUDA_CHECK(cudaMemcpyToSymbol(stencil_w, w, sizeof w));
    int failed = 0, checked = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_n; ++k) {
        const long long n = sizes[k];
        ++checked;
        course_buffer x = course_buffer_alloc((size_t)n * 4 + 16),
                      y = course_buffer_alloc((size_t)n * 4 + 16);
        float *hx = (float*)x.host, *hy = (float*)y.host, *ref = (float*)malloc((size_t)n * 4);
        if (!ref) die("out of host memory");
        for (long long i = 0; i < n; ++i) hx[i] = (float)(rng_u32(&seed) / 4294967296.0 * 2 - 1);
        stencil_reference(hx, w, n, ref);
        course_buffer_upload(&x);
        for (int v = 0; v < running->n; ++v) {
            const stencil_variant* s = stencil_at(running, v);
            if (!s->launch || !course_variant_selected(a, &s->v)) continue;
            course_buffer_poison(&y);
            run_stencil(s, (const float*)x.dev, (float*)y.dev, n, blocks);
            CUDA_CHECK_LAUNCH();
            course_buffer_download(&y);
            const long long i = course_first_difference(hy, ref, (size_t)n, sizeof(float));
            if (i >= 0) {
                printf("  %s, n = %lld: y[%lld] = %.9g, expected %.9g (bit for bit)\n", s->v.name,
                       n, i, hy[i], ref[i]);
                failed = 1;
            }
        }
        course_buffer_free(&x);
        course_buffer_free(&y);
        free(ref);
    }
    printf("check: the stencils %s (%d sizes from 1, 3 blocks, bit for bit against the CPU)\n",
           failed ? "FAILED" : "right", checked);
    return failed;
}

/* ---------------------------------------------------------------- the benchmark */

typedef struct {
    const stencil_variant* v;
    long long n;
    bench_result t;
    double gbps, of_memcpy;
} stencil_measurement;

typedef struct {
    const stencil_variant* v;
    const float* base;
    float* y;
    long long n, stride, sets, first;
    int blocks;
} stencil_ctx;

static void stencil_launch(void* p, int rep) {
    const stencil_ctx* b = (const stencil_ctx*)p;
    run_stencil(b->v, b->base + (b->first + rep) % b->sets * b->stride, b->y, b->n, b->blocks);
}

enum { WARMUP = 2 };

/* n = 2^20 .. 2^28 floats; inputs rotated over slices of a buffer of max(2^28 floats, 3x the L2),
 * each measurement going on from where the last stopped (as chapter 07). GB/s = 8 n / time. The
 * baseline at every n, the others selected; one block per SM (blocks), so that the pipeline alone
 * hides latency. */
static int bench_stencils(const char* program, const course_args* a, const course_device* dev,
                          const course_variants* running, stencil_measurement* m) {
    const int blocks = dev->sm_count;
    const long long n_max = 1LL << 28;
    const long long floats = n_max > 3 * (long long)dev->l2_bytes / 4
                                 ? n_max + 16
                                 : 3 * (long long)dev->l2_bytes / 4 + 16;
    course_require_device_memory(program, (floats + n_max) * 4.0, "the stencil benchmark");
    float *base, *y;
    CUDA_CHECK(cudaMalloc(&base, (size_t)floats * 4));
    CUDA_CHECK(cudaMalloc(&y, (size_t)n_max * 4 + 16));
    CUDA_CHECK(cudaMemset(base, 0, (size_t)floats * 4));
    int n_m = 0;
    long long cursor = 0;
    for (long long n = 1LL << 20; n <= n_max; n *= 4) {
        const long long stride = (n + 15) / 16 * 16, sets = (floats - 16) / stride;
        double memcpy_ms = 0;
        for (int v = 0; v < running->n; ++v) {
            const stencil_variant* s = stencil_at(running, v);
            if (!s->v.baseline && !course_variant_selected(a, &s->v)) continue;
            stencil_ctx b = {s, base, y, n, stride, sets, 0, blocks};
            b.first = (cursor + stride - 1) / stride % sets;
            cursor = (b.first + WARMUP + a->reps) % sets * stride;
            stencil_measurement* x = &m[n_m++];
            x->v = s;
            x->n = n;
            x->t = bench_run(stencil_launch, &b, WARMUP, (int)a->reps, s->launch ? 1 : 0);
            x->gbps = 8.0 * n / (x->t.median_ms * 1e6);
            if (s->v.baseline) memcpy_ms = x->t.median_ms;
            x->of_memcpy = memcpy_ms / x->t.median_ms;
        }
    }
    CUDA_CHECK(cudaFree(base));
    CUDA_CHECK(cudaFree(y));
    printf("\nstencil: median of %ld repetitions, %d blocks of %d threads (one per SM); GB/s = "
           "(n read + n written) x 4 bytes / time\n",
           a->reps, blocks, STENCIL_NT);
    printf("%-16s %11s %10s %10s %10s %8s %9s\n", "variant", "n", "median ms", "min ms", "max ms",
           "GB/s", "% memcpy");
    for (int i = 0; i < n_m; ++i)
        printf("%-16s %11lld %10.4f %10.4f %10.4f %8.0f %8.1f%%\n", m[i].v->v.name, m[i].n,
               m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].gbps, 100 * m[i].of_memcpy);
    return n_m;
}

/* ---------------------------------------------------------------- the CSV */

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0}, {"type", CSV_TEXT, 0},        {"kernel", CSV_INT, 0},
    {"n", CSV_INT, 0},        {"bytes_moved", CSV_REAL, 0}, CSV_TIMING_COLUMNS,
    {"launches", CSV_INT, 0}, {"gbps", CSV_REAL, 1},        {"of_memcpy", CSV_REAL, 4},
};

/* The measurements go next to the GEMM's: FILE with .csv replaced by _stencil.csv. */
static void write_csv(const char* gemm_path, const course_device* dev, const char* cmd,
                      const stencil_measurement* m, int n) {
    char path[COURSE_PATH_MAX];
    if (course_side_path(gemm_path, STENCIL_CSV, path, sizeof path))
        die("--csv %s: too long a path", gemm_path);
    csv_table t;
    csv_table_open(&t, path, dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        csv_text(&t, "variant", m[i].v->v.name);
        csv_text(&t, "type", "float");
        csv_int(&t, "kernel", m[i].v->v.number);
        csv_int(&t, "n", m[i].n);
        csv_real(&t, "bytes_moved", 8.0 * m[i].n);
        csv_timing(&t, &m[i].t);
        csv_int(&t, "launches", m[i].t.launches);
        csv_real(&t, "gbps", m[i].gbps);
        csv_real(&t, "of_memcpy", m[i].of_memcpy);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- the part */

int stencil_run(const char* program, const course_args* a, const course_device* dev,
                const course_variants* running, int lesson) {
    if (a->check || lesson) {
        if (check_stencils(a, running, a->size_given ? a->size * a->size : 1000003)) return 1;
        if (a->check) return 0;
    }
    static stencil_measurement m[64];
    const int n = a->shape_given ? 0 : bench_stencils(program, a, dev, running, m);
    if (a->csv) write_csv(a->csv, dev, a->command_line, m, n);
    return 0;
}
