/* Chapter 06: SGEMM step by step, to most of cuBLAS.
 *
 * C = alpha * A * B + beta * C in fp32, row-major (gemm.h), any M, N, K. cuBLAS SGEMM is the
 * baseline, timed in the same run; the kernels (gemm_kernels.cuh, gemm_smem.cuh) climb from one
 * thread per element to warp tiles with a double-buffered, swizzled shared-memory pipeline.
 *
 * File layout: variants (with cuBLAS), lesson tables (bank model), CSV, main; the check, the
 * benchmark and the summary are common/gemm/harness.h's (shared with chapter 08). */
#include "gemm.h"
#include "gemm_kernels.cuh"
#include "gemm_smem.cuh"
#include "gemm/harness.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const course_cli CLI = {
    "06_gemm_tiling",
    "FP32 GEMM, row-major, any shape: cuBLAS as the baseline, then naive, coalesced, shared\n"
    "tiles, 1-D and 2-D register blocking, float4 + transposed A (plain, padded, swizzled),\n"
    "warp tiles and double buffering.",
    "the benchmark's largest cube N^3 (256^3 .. N^3 doubling, (N/2+1)^3,\n"
    "                  2N x N/8 x N/2, N/2 x N/2 x N/16); with --check, the largest dimension\n"
    "                  checked and the cube compared with cuBLAS (without --size: all, 1024^3)",
    8192,
    20,
    16384,
    3, /* --shape MxNxK */
    1 << 17,
    0, /* --size from 1 */
    {NULL} /* no side files beside --csv */};

/* ---------------------------------------------------------------- the variants */

/* What the harness does not need to know of a kernel: its bank model and geometry. */
typedef struct {
    int modelled;
    gemm_smem_cost model;
    gemm_geometry geo; /* kernels 6 to 8 */
} kernel_info;

static void launch_naive(const gemm_call* c) {
    gemm_naive<<<dim3((c->M + 31) / 32, (c->N + 31) / 32), 1024>>>(c->M, c->N, c->K, c->alpha, c->A,
                                                                   c->B, c->beta, c->C);
}
static void launch_coalesced(const gemm_call* c) {
    gemm_coalesced<<<dim3((c->N + 31) / 32, (c->M + 31) / 32), 1024>>>(c->M, c->N, c->K, c->alpha,
                                                                       c->A, c->B, c->beta, c->C);
}
static void launch_smem(const gemm_call* c) {
    gemm_smem<<<gemm_smem_grid(c->M, c->N), T3 * T3>>>(c->M, c->N, c->K, c->alpha, c->A, c->B,
                                                       c->beta, c->C);
}
static void launch_blocktile_1d(const gemm_call* c) {
    gemm_blocktile_1d<<<dim3((c->N + K4_BN - 1) / K4_BN, (c->M + K4_BM - 1) / K4_BM), K4_NT>>>(
        c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C);
}
static void launch_blocktile_2d(const gemm_call* c) {
    gemm_blocktile_2d<<<dim3((c->N + K5_BN - 1) / K5_BN, (c->M + K5_BM - 1) / K5_BM), K5_NT>>>(
        c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C);
}

template <int BM, int BN, int BK, int NT, int SPREAD, int LANES_M, int A_SLOT, int B_PADDED,
          int STAGES, int MIN_BLOCKS = 2>
static void launch_vec(const gemm_call* c) {
    gemm_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED, STAGES, MIN_BLOCKS>
        <<<dim3((c->N + BN - 1) / BN, (c->M + BM - 1) / BM), NT>>>(
            c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C, gemm_float4_ok(c));
}

template <int BM, int BN, int BK, int NT, int SPREAD, int LANES_M, int A_SLOT, int B_PADDED,
          int STAGES, int MIN_BLOCKS = 2>
static void vec_variant(gemm_variant* all, kernel_info* infos, int* n, const char* name, int number,
                        const char* adds, int sweep) {
    gemm_variant* v = &all[*n];
    kernel_info* x = &infos[(*n)++];
    gemm_variant_init(v, name, number, adds, sweep);
    memset(x, 0, sizeof *x);
    v->launch = launch_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED, STAGES, MIN_BLOCKS>;
    v->kernel = (const void*)
        gemm_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED, STAGES, MIN_BLOCKS>;
    v->threads = NT;
    const gemm_geometry geo = {
        BM, BN, BK, NT, (gemm_spread)SPREAD, LANES_M, (gemm_slot)A_SLOT, B_PADDED, STAGES};
    x->geo = geo;
    if (gemm_model_vec(&x->geo, &x->model)) die("%s: a shared access is malformed", name);
    x->modelled = 1;
}

static void plain_variant(gemm_variant* all, kernel_info* infos, int* n, const char* name,
                          int number, const char* adds, gemm_launch_fn launch, const void* kernel,
                          int threads, int (*model)(gemm_smem_cost*)) {
    gemm_variant* v = &all[*n];
    kernel_info* x = &infos[(*n)++];
    gemm_variant_init(v, name, number, adds, 0);
    memset(x, 0, sizeof *x);
    v->launch = launch;
    v->kernel = kernel;
    v->threads = threads;
    if (model) {
        if (model(&x->model)) die("%s: a shared access is malformed", name);
        x->modelled = 1;
    }
}

enum { N_VARIANTS = 20 };

static int all_variants(gemm_variant* v, kernel_info* x) {
    int n = 0;
    plain_variant(v, x, &n, "cublas", 0,
                  "cuBLAS SGEMM, default math mode (fp32 FMA, TF32 off): the baseline",
                  gemm_launch_cublas, NULL, 0, NULL);
    plain_variant(v, x, &n, "cublas_pedantic", 0,
                  "cuBLAS SGEMM, CUBLAS_PEDANTIC_MATH: the same, prescribed precision throughout",
                  gemm_launch_cublas_pedantic, NULL, 0, NULL);
    plain_variant(v, x, &n, "naive", 1, "one thread per element of C, lanes down a column",
                  launch_naive, (const void*)gemm_naive, 1024, NULL);
    plain_variant(v, x, &n, "coalesced", 2,
                  "lanes along a row of C: B and C coalesce, A broadcasts", launch_coalesced,
                  (const void*)gemm_coalesced, 1024, NULL);
    plain_variant(v, x, &n, "smem", 3, "32x32 tiles of A and B staged in shared memory (exercise)",
                  launch_smem, (const void*)gemm_smem, T3 * T3, gemm_model_smem);
    plain_variant(v, x, &n, "blocktile_1d", 4, "64x64 tile, each thread 8 rows of one column",
                  launch_blocktile_1d, (const void*)gemm_blocktile_1d, K4_NT,
                  gemm_model_blocktile_1d);
    plain_variant(v, x, &n, "blocktile_2d", 5, "128x128 tile, each thread an 8x8 block of C",
                  launch_blocktile_2d, (const void*)gemm_blocktile_2d, K5_NT,
                  gemm_model_blocktile_2d);
    /* Kernel 6: float4 global loads, A stored transposed, float4 shared reads; four layouts, the
     * last (padded A, faster than the swizzle by measurement: README) is kernel 6's result. */
    vec_variant<128, 128, 8, 256, SPREAD_BLOCK, 0, SLOT_PLAIN, 0, 1>(
        v, x, &n, "vec_plain", 6,
        "float4 loads, A transposed in shared memory, float4 reads; no fix", 0);
    vec_variant<128, 128, 8, 256, SPREAD_BLOCK, 0, SLOT_PLAIN, 1, 1>(
        v, x, &n, "vec_pad_b", 6, "the trap: B's rows padded (B had no conflict; A's stays)", 0);
    vec_variant<128, 128, 8, 256, SPREAD_BLOCK, 0, SLOT_SWIZZLED, 0, 1>(
        v, x, &n, "vec_swizzle", 6, "A's slice swizzled, Swizzle<1,4,5>: conflict-free, no padding",
        0);
    vec_variant<128, 128, 8, 256, SPREAD_BLOCK, 0, SLOT_PADDED, 0, 1>(
        v, x, &n, "vec_pad_a", 6, "A's transposed rows padded by 4 floats: conflict-free (kept)",
        0);
    vec_variant<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 1>(
        v, x, &n, "warptile", 7, "each warp owns a 32x64 tile of C, its lanes a 4x8 grid in it", 0);
    vec_variant<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2>(
        v, x, &n, "double_buffer", 8, "two stages: the next slice loads while this one is computed",
        0);
    /* Kernel 8's sweep (README, "The sweep"): what each of its choices is worth. */
    vec_variant<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_SWIZZLED, 0, 2, 2>(
        v, x, &n, "db_bk8_swizzle", 8, "sweep", 1);
    vec_variant<128, 128, 8, 256, SPREAD_WARP, 8, SLOT_PADDED, 0, 2, 2>(v, x, &n, "db_bk8_lanes8x4",
                                                                        8, "sweep", 1);
    vec_variant<128, 128, 16, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 1>(v, x, &n, "db_bk16_1block",
                                                                         8, "sweep", 1);
    vec_variant<128, 128, 16, 256, SPREAD_WARP, 4, SLOT_SWIZZLED, 0, 2, 1>(
        v, x, &n, "db_bk16_swizzle", 8, "sweep", 1);
    vec_variant<128, 128, 16, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2>(
        v, x, &n, "db_bk16_2blocks", 8, "sweep", 1);
    vec_variant<128, 64, 16, 128, SPREAD_WARP, 4, SLOT_PADDED, 0, 2>(v, x, &n, "db_128x64_bk16", 8,
                                                                     "sweep", 1);
    vec_variant<64, 128, 16, 128, SPREAD_WARP, 8, SLOT_PADDED, 0, 2>(v, x, &n, "db_64x128_bk16", 8,
                                                                     "sweep", 1);
    return n;
}

/* ---------------------------------------------------------------- lesson tables */

static void print_variants(const gemm_variant* v, int n) {
    printf("The kernels (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < n; ++i)
        if (!v[i].sweep) printf("  %d %-16s %s\n", v[i].number, v[i].name, v[i].adds);
    printf("  8 db_*             the sweep: kernel 8 at other slice depths, layouts, lane grids\n");
}

static const char* slot_name(const kernel_info* v) {
    static char buf[64];
    if (!v->geo.bm) return "";
    if (v->geo.a_slot == SLOT_SWIZZLED) {
        snprintf(buf, sizeof buf, "A Swizzle<%d,%d,%d>", gemm_swizzle_b(v->geo.bk),
                 gemm_swizzle_m(v->geo.bk), gemm_swizzle_s(v->geo.bm, v->geo.bk));
    } else {
        snprintf(buf, sizeof buf, "A %s%s", v->geo.a_slot == SLOT_PADDED ? "padded" : "plain",
                 v->geo.b_padded ? ", B padded" : "");
    }
    return buf;
}

static void print_model(const gemm_variant* v, const kernel_info* x, int n) {
    printf("\nShared memory, by the bank model: wavefronts per request of each access (ideal in\n"
           "brackets: the same instruction with every lane on its own consecutive element).\n");
    printf("%-17s %-26s %-22s %5s %15s\n", "kernel", "layout", "access", "bytes", "wavefronts");
    for (int i = 0; i < n; ++i) {
        if (!x[i].modelled) continue;
        for (int a = 0; a < x[i].model.n; ++a) {
            const gemm_access_cost* c = &x[i].model.access[a];
            printf("%-17s %-26s %-22s %5d %6.2f (%5.2f)%s\n", a ? "" : v[i].name,
                   a ? "" : slot_name(&x[i]), c->what, c->width, c->wavefronts, c->ideal,
                   c->wavefronts > c->ideal ? "  conflict" : "");
        }
    }
    printf("Kernel 5's reads conflict: a warp's two thread rows read A 64 words apart (one bank)\n"
           "and its 16 thread columns read B 8 words apart. Kernel 6 moves A's slice transposed:\n"
           "its float4 loads become four scalar stores down a column, BK / 4 = 2 rows of lanes on\n"
           "the same banks. Padding B (the tile with no conflict) changes nothing; padding or\n"
           "swizzling A removes it. At BK = 16 padding cannot (db_bk16_1block): see README.\n");
}

/* ---------------------------------------------------------------- the CSV */

static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const gemm_variant* all, const kernel_info* info, const gemm_measurement* m,
                      int n) {
    FILE* f = csv_open(path, dev, cmd,
                       "variant,type,kernel,M,N,K,sweep,bm,bn,bk,threads,stages,flops,median_ms,"
                       "min_ms,max_ms,reps,launches,gflops,of_cublas,error_vs_cublas,registers,"
                       "spill_bytes,smem_bytes,blocks_per_sm,model_st_wavefronts_per_request,"
                       "model_ld_wavefronts_per_request");
    for (int i = 0; i < n; ++i) {
        const gemm_variant* v = m[i].v;
        const kernel_info* x = &info[v - all];
        const gemm_resources r = gemm_kernel_resources(v);
        fprintf(f,
                "%s,float,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f,%.3g,"
                "%d,%d,%d,%d,%.4f,%.4f\n",
                csv_field(v->name), v->number, m[i].s.M, m[i].s.N, m[i].s.K, v->sweep, x->geo.bm,
                x->geo.bn, x->geo.bk, v->threads, x->geo.stages,
                2.0 * m[i].s.M * m[i].s.N * (double)m[i].s.K, m[i].t.median_ms, m[i].t.min_ms,
                m[i].t.max_ms, m[i].t.reps, m[i].t.launches, m[i].gflops, m[i].of_cublas,
                m[i].error, r.regs, r.spill_bytes, r.smem_bytes, r.blocks_per_sm,
                x->modelled && x->model.st >= 0 ? x->model.st : -1.0,
                x->modelled && x->model.ld >= 0 ? x->model.ld : -1.0);
    }
    csv_close(f, path);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    static gemm_variant v[N_VARIANTS], sel[N_VARIANTS]; /* sel: the variants --variant picks */
    static kernel_info info[N_VARIANTS];
    int nv = all_variants(v, info);
    if (nv != N_VARIANTS) die("%d variants, expected %d", nv, N_VARIANTS);
    int n_sel = 0;
    for (int i = 0; i < nv; ++i)
        if (!args.variant || !strcmp(v[i].name, args.variant)) ++n_sel;
    if (!n_sel) return course_usage_error(&CLI, "no variant '%s' (see --list)", args.variant);
    static int runs[N_VARIANTS];
    course_target target;
    if (args.list) {
        for (int i = 0; i < nv; ++i)
            printf("%d %-17s %s%s%s\n", v[i].number, v[i].name, v[i].adds,
                   info[i].geo.bm ? "; " : "", slot_name(&info[i]));
        if (course_target_of_table(args.gpu, &target)) {
            gemm_judge(&target, v, nv, runs);
            course_chapter_verdict(&target, gemm_own_kernels(v, nv, runs), NULL, 1);
        }
        return EXIT_OK;
    }
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        print_variants(v, nv);
        print_model(v, info, nv);
    }
    course_device dev;
    rc = course_device_open(&dev, 7, 5, "the GEMM kernels");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    course_target_of_device(&dev, &target);
    gemm_judge(&target, v, nv, runs);
    const int own = gemm_own_kernels(v, nv, runs);
    course_keep(info, sizeof info[0], nv, runs);
    nv = course_keep(v, sizeof v[0], nv, runs);
    n_sel = 0;
    for (int i = 0; i < nv; ++i)
        if (!args.variant || !strcmp(v[i].name, args.variant)) sel[n_sel++] = v[i];
    rc = course_chapter_verdict(&target, own, args.variant, n_sel > 0);
    if (rc != EXIT_OK) return rc;
    gemm_cublas_open();
    if (lesson || args.bench) gemm_print_resources(v, nv);

    if (args.check || lesson) {
        rc =
            gemm_run_check(CLI.program, sel, n_sel, &args, args.size_given ? (int)args.size : 1024);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static gemm_measurement m[512];
    const int n_m = gemm_run_bench(CLI.program, v, nv, &args, m);
    gemm_print_measurements(m, n_m);
    int bad = 0;
    for (int i = 0; i < n_m; ++i) bad |= gemm_wrong(&m[i]);
    if (args.csv) write_csv(args.csv, &dev, args.command_line, v, info, m, n_m);
    if (lesson) gemm_print_summary(CLI.program, &dev, v, nv, m, n_m, &args);
    if (bad) printf("benchmark: some outputs were WRONG (see above)\n");
    return bad ? EXIT_CHECK_FAILED : EXIT_OK;
}
