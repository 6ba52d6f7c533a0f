/* The GEMM harness's benchmark: the shapes, the timing against cuBLAS in the same run, the tables
 * (harness.h). */
#include "gemm/harness.h"

#include "host/buffers.h"
#include "host/check.h"
#include "host/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the benchmark */

typedef struct {
    const gemm_variant* v;
    gemm_call c;
} bench_ctx;

static void bench_launch(void* p, int rep) {
    (void)rep; /* compute-bound: the same matrices every time (see README, "Measuring") */
    const bench_ctx* b = (const bench_ctx*)p;
    b->v->launch(&b->c);
}

/* The benchmark's shapes: N^3 from 256^3 doubling, (N/2 + 1)^3, 2N x N/8 x N/2 (tall) and
 * N/2 x N/2 x N/16 (short K); or --shape. */
int gemm_bench_shapes(const course_args* a, gemm_shape* s) {
    if (a->shape_given) {
        s[0] = gemm_shape{(int)a->shape[0], (int)a->shape[1], (int)a->shape[2]};
        return 1;
    }
    const int N = (int)a->size;
    int n = 0;
    for (int d = 256 < N ? 256 : N; d <= N; d *= 2) s[n++] = gemm_shape{d, d, d};
    if (s[n - 1].M != N) s[n++] = gemm_shape{N, N, N};
    if (N >= 512) {
        s[n++] = gemm_shape{N / 2 + 1, N / 2 + 1, N / 2 + 1};
        s[n++] = gemm_shape{2 * N, N / 8, N / 2};
        s[n++] = gemm_shape{N / 2, N / 2, N / 16};
    }
    return n;
}

/* A shape's variants are timed in ROUNDS rounds, each variant a share of its repetitions a round,
 * and each reports the median of its rounds' medians: at the small shapes a variant measures in a
 * millisecond or two, short enough for a drift of the clocks between one variant's turn and the
 * next to decide a ratio. A variant given fewer than ROUNDS_FROM repetitions keeps one round: a
 * profiler's run (--reps 1 or 2), whose launches stay together in the order ncu_check.py counts
 * them, and a slow kernel whose time budget holds only a few, which rounds would give 2 warm-ups
 * each (chapter 06's naive kernel at 8192^3 takes 2 s a launch). */
enum { WARMUP = 2, TIME_BUDGET_MS = 2500, ROUNDS = 5, ROUNDS_FROM = 10 };

int gemm_run_bench(const char* program, const course_variants* t, const course_args* a,
                   gemm_measurement* m) {
    gemm_shape s[16];
    const int n_shapes = gemm_bench_shapes(a, s);
    return gemm_run_bench_at(program, t, a, s, n_shapes, m);
}

/* One variant's turns at a shape. */
typedef struct {
    bench_ctx b;
    gemm_measurement* x;
    int reps, rounds, per_round;
    double median[ROUNDS];
} bench_turns;

int gemm_run_bench_at(const char* program, const course_variants* t, const course_args* a,
                      const gemm_shape* s, int n_shapes, gemm_measurement* m) {
    int n_m = 0;
    for (int i = 0; i < t->n; ++i) {
        const course_variant* x = &gemm_variant_at(t, i)->v;
        if (x->kernel) bench_warn_if_spilling(x->kernel, x->name);
    }
    const int rounds = a->reps >= ROUNDS_FROM ? ROUNDS : 1;
    printf("\nbenchmark: median of up to %ld repetitions after %d warm-ups (fewer for a kernel "
           "whose warm-up says %d ms would not hold them, at least 3), in %d round%s that take "
           "the variants in turn (one for a variant given fewer than %d repetitions); alpha = 1, "
           "beta = 0; GFLOP/s = 2 M N K / time\n",
           a->reps, WARMUP, TIME_BUDGET_MS, rounds, rounds > 1 ? "s" : "", (int)ROUNDS_FROM);
    bench_turns* turn = (bench_turns*)malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof *turn);
    if (!turn) die("out of host memory");
    for (int k = 0; k < n_shapes; ++k) {
        if (s[k].K == 0) { /* only from --shape: the check covers it */
            printf("benchmark: %dx%dx0 skipped: K = 0 (C = beta C) has no multiply-add to time\n",
                   s[k].M, s[k].N);
            continue;
        }
        gemm_require_memory(program, s[k]);
        const size_t na = (size_t)s[k].M * s[k].K, nb = (size_t)s[k].K * s[k].N,
                     nc = (size_t)s[k].M * s[k].N;
        course_buffer A = course_buffer_alloc(na * 4), B = course_buffer_alloc(nb * 4),
                      C = course_buffer_alloc(nc * 4), Ref = course_buffer_alloc(nc * 4);
        unsigned long long seed = a->seed + (unsigned long long)k;
        gemm_fill_uniform((float*)A.host, na, &seed);
        gemm_fill_uniform((float*)B.host, nb, &seed);
        course_buffer_upload(&A);
        course_buffer_upload(&B);
        const float *dA = (const float*)A.dev, *dB = (const float*)B.dev;
        float *dC = (float*)C.dev, *dRef = (float*)Ref.dev;
        const double flops = 2.0 * s[k].M * s[k].N * (double)s[k].K;
        int n_turns = 0;
        for (int i = 0; i < t->n; ++i) {
            const gemm_variant* v = gemm_variant_at(t, i);
            /* The reference: cuBLAS in its default math mode (another baseline, such as the
             * pedantic mode, is measured against it like a kernel). */
            const int is_cublas = v->launch == gemm_launch_cublas;
            if (!is_cublas && a->variant && strcmp(v->v.name, a->variant)) continue;
            const int cube = s[k].M == s[k].N && s[k].N == s[k].K;
            if (!is_cublas && !a->variant && !a->shape_given && v->sweep &&
                !(cube && (s[k].M == a->size || s[k].M == a->size / 2)))
                continue; /* the sweep at N^3 and (N/2)^3 */
            bench_turns* u = &turn[n_turns++];
            u->b.v = v;
            u->b.c =
                gemm_call_dense(s[k].M, s[k].N, s[k].K, 1.0f, dA, dB, 0.0f, is_cublas ? dRef : dC);
            u->x = &m[n_m++];
            u->x->v = v;
            u->x->s = s[k];
            u->x->t.launches = 0;
        }
        /* cuBLAS's turn comes first in a round: its result is the reference the others' first
         * turns are compared with, straight after each (they share C). */
        for (int r = 0; r < rounds; ++r)
            for (int j = 0; j < n_turns; ++j) {
                bench_turns* u = &turn[j];
                const int kernels = u->b.v->v.kernel ? 1 : 0;
                if (r > 0 && r >= u->rounds) continue;
                if (r == 0) {
                    CUDA_CHECK(cudaMemset(u->b.c.C, 0xff, nc * 4)); /* NaN: unwritten shows */
                    /* How many repetitions fit the time budget: one timed launch decides (none
                     * needed for --reps 1 or 2, what the ncu test asks for). */
                    u->reps = (int)a->reps;
                    if (u->reps > 2) {
                        const bench_result probe = bench_run(bench_launch, &u->b, 0, 1, 0);
                        const int fit = (int)(TIME_BUDGET_MS /
                                              (probe.median_ms > 1e-3 ? probe.median_ms : 1e-3));
                        u->reps = fit < 3 ? 3 : fit < u->reps ? fit : u->reps;
                        u->x->t.launches += kernels;
                    }
                    u->rounds = u->reps >= ROUNDS_FROM ? rounds : 1;
                    u->per_round = (u->reps + u->rounds - 1) / u->rounds;
                }
                const bench_result got =
                    bench_run(bench_launch, &u->b, WARMUP, u->per_round, kernels);
                u->median[r] = got.median_ms;
                u->x->t.launches += got.launches;
                if (r == 0) {
                    u->x->t.min_ms = got.min_ms, u->x->t.max_ms = got.max_ms;
                    u->x->error = u->b.v->launch == gemm_launch_cublas
                                      ? 0.0
                                      : gemm_device_distance(dC, dRef, nc);
                } else {
                    if (got.min_ms < u->x->t.min_ms) u->x->t.min_ms = got.min_ms;
                    if (got.max_ms > u->x->t.max_ms) u->x->t.max_ms = got.max_ms;
                }
            }
        double cublas_ms = 0;
        for (int j = 0; j < n_turns; ++j) {
            bench_turns* u = &turn[j];
            const int nr = u->rounds;
            bench_stats(u->median, nr, &u->x->t.median_ms, NULL, NULL); /* of the rounds' */
            u->x->t.reps = u->per_round * nr;
            u->x->gflops = flops / (u->x->t.median_ms * 1e6);
            if (u->b.v->launch == gemm_launch_cublas) cublas_ms = u->x->t.median_ms;
            u->x->of_cublas = cublas_ms / u->x->t.median_ms;
        }
        course_buffer_free(&A);
        course_buffer_free(&B);
        course_buffer_free(&C);
        course_buffer_free(&Ref);
    }
    free(turn);
    return n_m;
}

/* Whether a benchmark result disagrees with cuBLAS's (NaN included). */
int gemm_wrong(const gemm_measurement* x) {
    return !(x->error <= 2 * gemm_tolerance(x->s.K));
}

void gemm_csv_result(csv_table* t, const gemm_measurement* m) {
    const gemm_resources r = gemm_kernel_resources(m->v);
    csv_real(t, "flops", 2.0 * m->s.M * m->s.N * (double)m->s.K);
    csv_timing(t, &m->t);
    csv_int(t, "launches", m->t.launches);
    csv_real(t, "gflops", m->gflops);
    csv_real(t, "of_cublas", m->of_cublas);
    csv_real(t, "error_vs_cublas", m->error);
    csv_int(t, "registers", r.regs);
    csv_int(t, "spill_bytes", r.spill_bytes);
    csv_int(t, "smem_bytes", r.smem_bytes);
    csv_int(t, "blocks_per_sm", r.blocks_per_sm);
}

void gemm_print_measurements(const gemm_measurement* m, int n) {
    printf("\n%-17s %18s %10s %10s %10s %5s %9s %9s %10s\n", "kernel", "M x N x K", "median ms",
           "min ms", "max ms", "reps", "GFLOP/s", "% cuBLAS", "vs cuBLAS");
    for (int i = 0; i < n; ++i) {
        char sh[48];
        snprintf(sh, sizeof sh, "%dx%dx%d", m[i].s.M, m[i].s.N, m[i].s.K);
        printf("%-17s %18s %10.4f %10.4f %10.4f %5d %9.0f %8.1f%% %10.1e%s\n", m[i].v->v.name, sh,
               m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].t.reps, m[i].gflops,
               100 * m[i].of_cublas, m[i].error, gemm_wrong(&m[i]) ? "  WRONG OUTPUT" : "");
    }
}

/* ---------------------------------------------------------------- summary */

static const gemm_measurement* lookup(const gemm_measurement* m, int n, const gemm_variant* v,
                                      gemm_shape s) {
    for (int i = 0; i < n; ++i)
        if (m[i].v == v && m[i].s.M == s.M && m[i].s.N == s.N && m[i].s.K == s.K) return &m[i];
    return NULL;
}

void gemm_print_summary(const char* program, const course_device* dev, const course_variants* t,
                        const gemm_measurement* m, int n, const course_args* a) {
    course_summary_header(dev, program);
    gemm_shape s[16];
    const int n_s = gemm_bench_shapes(a, s);
    printf("GFLOP/s and, in brackets, the share of cuBLAS's speed at the same shape, measured in\n"
           "this run (cuBLAS: default math, fp32):\n\n| kernel |");
    for (int k = 0; k < n_s; ++k) printf(" %dx%dx%d |", s[k].M, s[k].N, s[k].K);
    printf("\n| --- |");
    for (int k = 0; k < n_s; ++k) printf(" ---: |");
    printf("\n");
    for (int i = 0; i < t->n; ++i) {
        const gemm_variant* v = gemm_variant_at(t, i);
        int any = 0;
        for (int k = 0; k < n_s; ++k) any |= lookup(m, n, v, s[k]) != NULL;
        if (!any) continue;
        printf("| %d %s |", v->v.number, v->v.name);
        for (int k = 0; k < n_s; ++k) {
            const gemm_measurement* x = lookup(m, n, v, s[k]);
            if (x)
                printf(" %.0f (%.1f%%) |", x->gflops, 100 * x->of_cublas);
            else
                printf(" - |");
        }
        printf("\n");
    }
}
