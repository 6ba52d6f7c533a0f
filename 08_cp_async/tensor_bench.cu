/* Chapter 08, part 3's benchmark (tensor.h): the ceiling, then cuBLAS and every variant selected
 * at 4096^3 and 8192^3, each output against cuBLAS's; the _hgemm CSV; the lesson's summary. */
#include "hgemm_layout.h"
#include "hgemm_wgmma.h"
#include "tensor.h"
#include "tensor_model.h"
#include "gemm/harness.h"
#include "host/bench.h"
#include "host/buffers.h"
#include "host/check.h"
#include "host/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WARMUP = 2 };

typedef struct {
    const tensor_variant* v; /* the ceiling's row too */
    gemm_shape s;
    bench_result t;
    double tflops, of_ceiling, of_cublas, error;
} tensor_measurement;

typedef struct {
    const tensor_variant* v;
    tensor_call c;
    int blocks; /* the ceiling's */
} bench_ctx;

static void bench_gemm(void* p, int rep) {
    (void)rep; /* compute-bound: the same matrices every time */
    const bench_ctx* x = (const bench_ctx*)p;
    x->v->launch(&x->c);
}

static void bench_ceiling(void* p, int rep) {
    (void)rep;
    const bench_ctx* x = (const bench_ctx*)p;
    if (hgemm_is_wgmma(x->v->layout))
        hgemm_wgmma_launch_ceiling(x->blocks, x->c.C);
    else
        tensor_launch_ceiling(x->blocks, x->c.C);
}

/* The largest |x - r| over the largest |r|: how far an output is from cuBLAS's; NaN if any
 * element is NaN (an element never written keeps the NaN poison). */
static double distance(const float* x, const float* r, size_t n) {
    double diff = 0, top = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = fabs((double)x[i] - r[i]);
        if (d != d) return NAN;
        if (d > diff) diff = d;
        if (fabs(r[i]) > top) top = fabs(r[i]);
    }
    return diff / (top > 0 ? top : 1.0);
}

/* A ceiling. mma.sync's: 4 blocks of 8 warps per SM, 8 independent mma chains a warp; wgmma's
 * (its row's layout a wgmma one): a block of two warpgroups per SM. */
static tensor_measurement measure_ceiling(const course_args* a, const course_device* dev,
                                          const tensor_variant* ceiling) {
    const int wgmma = hgemm_is_wgmma(ceiling->layout);
    const int blocks = dev->sm_count * (wgmma ? 1 : CEILING_BLOCKS_PER_SM),
              threads = wgmma ? hgemm_wgmma_ceiling_threads() : CEILING_NT;
    float* sink;
    CUDA_CHECK(cudaMalloc(&sink, (size_t)blocks * threads * 4));
    bench_ctx x;
    memset(&x, 0, sizeof x);
    x.v = ceiling;
    x.c.C = sink;
    x.blocks = blocks;
    tensor_measurement m;
    memset(&m, 0, sizeof m);
    m.v = ceiling;
    /* launches: counts the GEMM kernels only, what the ncu test profiles (none here) */
    m.t = bench_run(bench_ceiling, &x, WARMUP, (int)a->reps, 0);
    const double flops_per_block =
        wgmma ? hgemm_wgmma_ceiling_flops_per_block()
              : 2.0 * 16 * 8 * 16 * 8.0 * CEILING_ITERS * (CEILING_NT / 32);
    m.tflops = flops_per_block * blocks / (m.t.median_ms * 1e9);
    m.of_ceiling = 1.0;
    m.of_cublas = -1.0; /* not a GEMM: -1 in the CSV */
    CUDA_CHECK(cudaFree(sink));
    return m;
}

/* Every variant selected (cuBLAS always: the baseline) at shape s, into m; returns how many.
 * Interleaved: each of a->reps rounds times every variant once, after one untimed launch, so
 * that a drift of clock or power over the run falls on all of them alike (steps 18 and 19 of the
 * wgmma kernels differ by about 2%, less than a drift could). In the last round each output is
 * checked against cuBLAS's, C poisoned before. */
static int measure_shape(const char* program, const course_args* a, const course_variants* running,
                         cublasHandle_t cublas, gemm_shape s, double mma_ceiling,
                         double wgmma_ceiling, tensor_measurement* m, int* bad) {
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N, nc = (size_t)s.M * s.N;
    course_require_device_memory(program, 2.0 * (na + nb) + 8.0 * nc, "the tensor-core benchmark");
    course_buffer A = course_buffer_alloc(na * 2), B = course_buffer_alloc(nb * 2),
                  C = course_buffer_alloc(nc * 4), Ref = course_buffer_alloc(nc * 4);
    unsigned long long seed = a->seed;
    tensor_fill_halves((__half*)A.host, na, &seed);
    tensor_fill_halves((__half*)B.host, nb, &seed);
    course_buffer_upload(&A);
    course_buffer_upload(&B);
    bench_ctx ctx[64];
    int n = 0; /* the variants timed; cuBLAS's comes first in the table */
    for (int i = 0; i < running->n && n < 64; ++i) {
        const tensor_variant* x = tensor_at(running, i);
        if (!x->launch || (!x->v.baseline && !course_variant_selected(a, &x->v))) continue;
        const tensor_call c = {(const __half*)A.dev,
                               (const __half*)B.dev,
                               (float*)(x->v.baseline ? Ref.dev : C.dev),
                               s.M,
                               s.N,
                               s.K,
                               1.0f,
                               0.0f,
                               cublas};
        ctx[n].v = x;
        ctx[n].c = c;
        ctx[n].blocks = 0;
        ++n;
    }
    const int rounds = (int)a->reps;
    double* ms = (double*)malloc(sizeof(double) * n * rounds);
    if (!ms) die("out of host memory");
    for (int k = 0; k < rounds; ++k)
        for (int j = 0; j < n; ++j) {
            const int last = k == rounds - 1, baseline = ctx[j].v->v.baseline;
            if (last && !baseline) course_buffer_poison(&C);
            ms[j * rounds + k] =
                bench_run(bench_gemm, &ctx[j], k == 0 ? WARMUP : 1, 1, 1).median_ms;
            if (!last) continue;
            tensor_measurement* r = &m[j];
            r->v = ctx[j].v;
            r->s = s;
            course_buffer_download(baseline ? &Ref : &C);
            r->error = baseline ? 0 : distance((const float*)C.host, (const float*)Ref.host, nc);
            if (!(r->error <= 1e-3)) {
                printf("benchmark: %s %dx%dx%d differs from cuBLAS by %.3g of its largest element: "
                       "WRONG\n",
                       r->v->v.name, s.M, s.N, s.K, r->error);
                *bad = 1;
            }
        }
    for (int j = 0; j < n; ++j) {
        tensor_measurement* r = &m[j];
        bench_stats(&ms[j * rounds], rounds, &r->t.median_ms, &r->t.min_ms, &r->t.max_ms);
        r->t.reps = rounds;
        r->t.launches = ctx[j].v->v.kernel ? WARMUP + 2 * rounds - 1 : 0;
        r->tflops = 2.0 * s.M * s.N * (double)s.K / (r->t.median_ms * 1e9);
        r->of_ceiling = r->tflops / (hgemm_is_wgmma(r->v->layout) ? wgmma_ceiling : mma_ceiling);
        r->of_cublas = m[0].t.median_ms / r->t.median_ms;
    }
    free(ms);
    course_buffer_free(&A);
    course_buffer_free(&B);
    course_buffer_free(&C);
    course_buffer_free(&Ref);
    return n;
}

/* ---------------------------------------------------------------- the CSV */

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"kernel", CSV_INT, 0},
    {"M", CSV_INT, 0},
    {"N", CSV_INT, 0},
    {"K", CSV_INT, 0},
    {"sweep", CSV_INT, 0},
    {"bm", CSV_INT, 0},
    {"bn", CSV_INT, 0},
    {"bk", CSV_INT, 0},
    {"stages", CSV_INT, 0},
    {"layout", CSV_TEXT, 0},
    {"threads", CSV_INT, 0},
    {"dynamic_smem", CSV_INT, 0},
    {"flops", CSV_REAL, 0},
    CSV_TIMING_COLUMNS,
    {"launches", CSV_INT, 0},
    {"tflops", CSV_REAL, 1},
    {"of_ceiling", CSV_REAL, 4},
    {"of_cublas", CSV_REAL, 4},
    {"error_vs_cublas", CSV_SIGNIFICANT, 3},
    {"registers", CSV_INT, 0},
    {"spill_bytes", CSV_INT, 0},
    {"model_ldsm_wavefronts_per_request", CSV_REAL, 4},
    {"model_st_wavefronts_per_request", CSV_REAL, 4},
    {"tma_copies_per_tile", CSV_INT, 0},
};

/* The GEMM kernels' rows carry their layout, registers and ldmatrix model (-1 for wgmma's, which
 * reads no fragments); cuBLAS's and the ceilings' none ("-", 0, -1); only the kernels that stage
 * C for the TMA have shared stores to predict. */
static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const tensor_measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        const tensor_variant* x = m[i].v;
        const int gemm_kernel = x->launch && x->v.kernel;
        int regs = 0, spill = 0, ideal, a_wf, b_wf;
        double model = -1;
        if (gemm_kernel) {
            cudaFuncAttributes fa;
            CUDA_CHECK(cudaFuncGetAttributes(&fa, x->v.kernel));
            regs = fa.numRegs;
            spill = (int)fa.localSizeBytes;
            if (!hgemm_is_wgmma(x->layout)) model = tensor_ldmatrix_wavefronts(x, &a_wf, &b_wf);
        }
        csv_text(&t, "variant", x->v.name);
        csv_int(&t, "kernel", x->v.number);
        csv_int(&t, "M", m[i].s.M);
        csv_int(&t, "N", m[i].s.N);
        csv_int(&t, "K", m[i].s.K);
        csv_int(&t, "sweep", x->sweep);
        csv_int(&t, "bm", x->bm);
        csv_int(&t, "bn", x->bn);
        csv_int(&t, "bk", x->bk);
        csv_int(&t, "stages", x->stages);
        csv_text(&t, "layout", gemm_kernel ? hgemm_layout_name(x->layout) : "-");
        csv_int(&t, "threads", x->v.needs.threads);
        csv_int(&t, "dynamic_smem", (long long)x->v.needs.dynamic_smem);
        csv_real(&t, "flops", m[i].tflops * m[i].t.median_ms * 1e9);
        csv_timing(&t, &m[i].t);
        csv_int(&t, "launches", m[i].t.launches);
        csv_real(&t, "tflops", m[i].tflops);
        csv_real(&t, "of_ceiling", m[i].of_ceiling);
        csv_real(&t, "of_cublas", m[i].of_cublas);
        csv_real(&t, "error_vs_cublas", m[i].error);
        csv_int(&t, "registers", regs);
        csv_int(&t, "spill_bytes", spill);
        csv_real(&t, "model_ldsm_wavefronts_per_request", model);
        csv_real(&t, "model_st_wavefronts_per_request",
                 x->stores_c_through_tma ? tensor_c_staging_model(1, 1, &ideal) : -1.0);
        const int copies = gemm_kernel ? hgemm_tma_copies_per_slice(x->layout, x->bn) : -1;
        csv_int(&t, "tma_copies_per_tile",
                copies < 0 ? -1 : (long long)copies * ((m[i].s.K + x->bk - 1) / x->bk));
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- the benchmark */

static void print_measurements(const course_args* a, const tensor_measurement* m, int n) {
    printf("\ntensor cores: median of %ld rounds, each timing every variant once after an untimed "
           "launch; TFLOP/s = 2 M N K / time; the ceilings: mma.sync on registers, wgmma on "
           "shared memory\n",
           a->reps);
    printf("%-20s %16s %10s %10s %10s %8s %9s %9s %10s\n", "variant", "shape", "median ms",
           "min ms", "max ms", "TFLOP/s", "% ceiling", "% cuBLAS", "vs cuBLAS");
    for (int i = 0; i < n; ++i) {
        const int gemm = m[i].v->launch != NULL;
        char shape[32], cublas[16], error[16];
        snprintf(shape, sizeof shape, "%dx%dx%d", m[i].s.M, m[i].s.N, m[i].s.K);
        snprintf(cublas, sizeof cublas, "%.1f%%", 100 * m[i].of_cublas);
        snprintf(error, sizeof error, "%.2g", m[i].error);
        printf("%-20s %16s %10.4f %10.4f %10.4f %8.1f %8.1f%% %9s %10s\n", m[i].v->v.name,
               gemm ? shape : "-", m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].tflops,
               100 * m[i].of_ceiling, gemm ? cublas : "-", gemm ? error : "-");
    }
}

int tensor_bench(const char* program, const course_args* a, const course_device* dev,
                 const course_variants* running, cublasHandle_t cublas, int lesson) {
    for (int i = 0; i < running->n; ++i) {
        const tensor_variant* x = tensor_at(running, i);
        if (!x->launch || !x->v.kernel) continue;
        char name[64];
        snprintf(name, sizeof name, "%s (rows not 16-byte aligned)", x->v.name);
        bench_warn_if_spilling(x->v.kernel, x->v.name);
        bench_warn_if_spilling(x->unaligned_kernel, name);
    }
    /* 4096^3 and 8192^3; --size N: those no larger than N, or N^3 alone; --shape: that shape. */
    gemm_shape shapes[2] = {{4096, 4096, 4096}, {8192, 8192, 8192}};
    int n_shapes = 2;
    if (a->shape_given) {
        shapes[0] = {(int)a->shape[0], (int)a->shape[1], (int)a->shape[2]};
        n_shapes = 1;
    } else if (a->size_given) {
        n_shapes = a->size >= 8192 ? 2 : a->size >= 4096 ? 1 : 0;
        if (!n_shapes) shapes[n_shapes++] = {(int)a->size, (int)a->size, (int)a->size};
    }
    if (a->variant &&
        (!strcmp(a->variant, TENSOR_CEILING) || !strcmp(a->variant, TENSOR_WGMMA_CEILING)))
        n_shapes = 0;
    static tensor_measurement m[64];
    int n_m = 0, bad = 0;
    const tensor_measurement ceiling =
        measure_ceiling(a, dev, tensor_at(running, course_find_variant(running, TENSOR_CEILING)));
    m[n_m++] = ceiling;
    /* wgmma's where it runs (sm_90): the wgmma kernels' share is of it */
    const int wgmma_at = course_find_variant(running, TENSOR_WGMMA_CEILING);
    double wgmma_ceiling = 0;
    if (wgmma_at >= 0) {
        m[n_m] = measure_ceiling(a, dev, tensor_at(running, wgmma_at));
        wgmma_ceiling = m[n_m++].tflops;
    }
    for (int k = 0; k < n_shapes; ++k) {
        if (shapes[k].K == 0) { /* only from --shape: the check covers it */
            printf("benchmark: tensor cores at %dx%dx0 skipped: K = 0 (C = beta C) has no "
                   "multiply-add to time\n",
                   shapes[k].M, shapes[k].N);
            continue;
        }
        n_m += measure_shape(program, a, running, cublas, shapes[k], ceiling.tflops, wgmma_ceiling,
                             &m[n_m], &bad);
    }
    print_measurements(a, m, n_m);
    if (a->csv) {
        char path[COURSE_PATH_MAX];
        if (course_side_path(a->csv, TENSOR_CSV, path, sizeof path))
            die("--csv %s: too long a path", a->csv);
        write_csv(path, dev, a->command_line, m, n_m);
    }
    if (lesson) {
        printf("\n| tensor cores | shape | TFLOP/s | of its ceiling | of cuBLAS |\n"
               "| --- | --- | ---: | ---: | ---: |\n");
        for (int i = 0; i < n_m; ++i)
            if (!m[i].v->sweep && m[i].v->launch) /* the ceilings last */
                printf("| %s | %dx%dx%d | %.1f | %.1f%% | %.1f%% |\n", m[i].v->v.name, m[i].s.M,
                       m[i].s.N, m[i].s.K, m[i].tflops, 100 * m[i].of_ceiling,
                       100 * m[i].of_cublas);
        printf("| %s | - | %.1f | 100%% | - |\n", TENSOR_CEILING, ceiling.tflops);
        if (wgmma_ceiling > 0)
            printf("| %s | - | %.1f | 100%% | - |\n", TENSOR_WGMMA_CEILING, wgmma_ceiling);
    }
    return bad;
}
