/* Chapter 06: SGEMM step by step, to most of cuBLAS.
 *
 * C = alpha * A * B + beta * C in fp32, row-major (gemm.h), any M, N, K. cuBLAS SGEMM is the
 * baseline, timed in the same run; the kernels (gemm_kernels.cuh, gemm_smem.cuh) climb from one
 * thread per element to warp tiles with a double-buffered, swizzled shared-memory pipeline.
 *
 * File layout: variants (with cuBLAS), lesson tables (bank model), CSV, main; the pictures in
 * gemm_pictures.cu; the check, the benchmark and the summary are common/gemm/harness.h's (shared
 * with chapter 08). */
#include "gemm.h"
#include "gemm_kernels.cuh"
#include "gemm_smem.cuh"
#include "gemm/harness.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int draw_pictures(const char* dir);

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
    0,      /* --size from 1 */
    {NULL}, /* no side files beside --csv */
    {},     /* no parts */
    draw_pictures};

/* ---------------------------------------------------------------- the variants */

/* A kernel of this chapter: what the harness runs (gemm_variant) and its bank model; kernels 6 to
 * 8 are gemm_vec under a geometry, kernels 3 to 5 have a model of their own. */
typedef struct {
    gemm_variant g;
    gemm_geometry geo;                   /* kernels 6 to 8; bm 0 for the others */
    int (*fixed_model)(gemm_smem_cost*); /* kernels 3 to 5 */
    int modelled;
    gemm_smem_cost model; /* filled by set_models */
} ch06_variant;

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
static void launch_smem_exercise(const gemm_call* c) {
    gemm_smem_exercise<<<gemm_smem_grid(c->M, c->N), T3 * T3>>>(c->M, c->N, c->K, c->alpha, c->A,
                                                                c->B, c->beta, c->C);
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
          int STAGES, int MIN_BLOCKS>
static void launch_vec(const gemm_call* c) {
    gemm_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED, STAGES, MIN_BLOCKS>
        <<<dim3((c->N + BN - 1) / BN, (c->M + BM - 1) / BM), NT>>>(
            c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C, gemm_float4_ok(c));
}

/* A row of the table for kernels 6 to 8: gemm_vec's launch, kernel and geometry from one list
 * of template constants. */
#define VEC(NAME, NUMBER, DESCRIPTION, SWEEP, BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED,   \
            STAGES, MIN_BLOCKS)                                                                    \
    {                                                                                              \
        .g = {.v = {.name = NAME,                                                                  \
                    .number = NUMBER,                                                              \
                    .description = DESCRIPTION,                                                    \
                    .kernel = (const void*)gemm_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT,       \
                                                    B_PADDED, STAGES, MIN_BLOCKS>,                 \
                    .needs = {.threads = NT}},                                                     \
              .launch = launch_vec<BM, BN, BK, NT, SPREAD, LANES_M, A_SLOT, B_PADDED, STAGES,      \
                                   MIN_BLOCKS>,                                                    \
              .sweep = SWEEP},                                                                     \
        .geo = {                                                                                   \
            BM,                                                                                    \
            BN,                                                                                    \
            BK,                                                                                    \
            NT,                                                                                    \
            SPREAD,                                                                                \
            LANES_M,                                                                               \
            A_SLOT,                                                                                \
            B_PADDED,                                                                              \
            STAGES                                                                                 \
        }                                                                                          \
    }

static ch06_variant VARIANTS[] = {
    {.g = {.v = {.name = "cublas",
                 .description =
                     "cuBLAS SGEMM, default math mode (fp32 FMA, TF32 off): the baseline",
                 .baseline = 1},
           .launch = gemm_launch_cublas}},
    {.g =
         {.v = {.name = "cublas_pedantic",
                .description =
                    "cuBLAS SGEMM, CUBLAS_PEDANTIC_MATH: the same, prescribed precision throughout",
                .baseline = 1},
          .launch = gemm_launch_cublas_pedantic}},
    {.g = {.v = {.name = "naive",
                 .number = 1,
                 .description = "one thread per element of C, lanes down a column",
                 .kernel = (const void*)gemm_naive,
                 .needs = {.threads = 1024}},
           .launch = launch_naive}},
    {.g = {.v = {.name = "coalesced",
                 .number = 2,
                 .description = "lanes along a row of C: B and C coalesce, A broadcasts",
                 .kernel = (const void*)gemm_coalesced,
                 .needs = {.threads = 1024}},
           .launch = launch_coalesced}},
    {.g = {.v = {.name = "smem",
                 .number = 3,
                 .description = "32x32 tiles of A and B staged in shared memory",
                 .kernel = (const void*)gemm_smem,
                 .needs = {.threads = T3 * T3}},
           .launch = launch_smem},
     .fixed_model = gemm_model_smem},
    {.g = {.v = {.name = "smem_exercise",
                 .number = 3,
                 .description = "kernel 3 through the exercise's two steps, compiled apart "
                                "(solution.cu): what the calls cost",
                 .kernel = (const void*)gemm_smem_exercise,
                 .needs = {.threads = T3 * T3}},
           .launch = launch_smem_exercise},
     .fixed_model = gemm_model_smem},
    {.g = {.v = {.name = "blocktile_1d",
                 .number = 4,
                 .description = "64x64 tile, each thread 8 rows of one column",
                 .kernel = (const void*)gemm_blocktile_1d,
                 .needs = {.threads = K4_NT}},
           .launch = launch_blocktile_1d},
     .fixed_model = gemm_model_blocktile_1d},
    {.g = {.v = {.name = "blocktile_2d",
                 .number = 5,
                 .description = "128x128 tile, each thread an 8x8 block of C",
                 .kernel = (const void*)gemm_blocktile_2d,
                 .needs = {.threads = K5_NT}},
           .launch = launch_blocktile_2d},
     .fixed_model = gemm_model_blocktile_2d},
    /* Kernel 6: float4 global loads, A stored transposed, float4 shared reads; four layouts, the
     * last (padded A, faster than the swizzle by measurement: README) is kernel 6's result. */
    VEC("vec_plain", 6, "float4 loads, A transposed in shared memory, float4 reads; no fix", 0, 128,
        128, 8, 256, SPREAD_BLOCK, 0, SLOT_PLAIN, 0, 1, 2),
    VEC("vec_pad_b", 6, "the trap: B's rows padded (B had no conflict; A's stays)", 0, 128, 128, 8,
        256, SPREAD_BLOCK, 0, SLOT_PLAIN, 1, 1, 2),
    VEC("vec_swizzle", 6, "A's slice swizzled, Swizzle<1,4,5>: conflict-free, no padding", 0, 128,
        128, 8, 256, SPREAD_BLOCK, 0, SLOT_SWIZZLED, 0, 1, 2),
    VEC("vec_pad_a", 6, "A's transposed rows padded by 4 floats: conflict-free (kept)", 0, 128, 128,
        8, 256, SPREAD_BLOCK, 0, SLOT_PADDED, 0, 1, 2),
    VEC("warptile", 7, "each warp owns a 32x64 tile of C, its lanes a 4x8 grid in it", 0, 128, 128,
        8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 1, 2),
    VEC("double_buffer", 8, "two stages: the next slice loads while this one is computed", 0, 128,
        128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2),
    /* Kernel 8's sweep (README, "The sweep"): what each of its choices is worth. */
    VEC("db_bk8_swizzle", 8, "sweep", 1, 128, 128, 8, 256, SPREAD_WARP, 4, SLOT_SWIZZLED, 0, 2, 2),
    VEC("db_bk8_lanes8x4", 8, "sweep", 1, 128, 128, 8, 256, SPREAD_WARP, 8, SLOT_PADDED, 0, 2, 2),
    VEC("db_bk16_1block", 8, "sweep", 1, 128, 128, 16, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 1),
    VEC("db_bk16_swizzle", 8, "sweep", 1, 128, 128, 16, 256, SPREAD_WARP, 4, SLOT_SWIZZLED, 0, 2,
        1),
    VEC("db_bk16_2blocks", 8, "sweep", 1, 128, 128, 16, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2),
    VEC("db_128x64_bk16", 8, "sweep", 1, 128, 64, 16, 128, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2),
    VEC("db_64x128_bk16", 8, "sweep", 1, 64, 128, 16, 128, SPREAD_WARP, 8, SLOT_PADDED, 0, 2, 2),
};
#undef VEC
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* Every kernel's bank model, from its geometry or its own tables. */
static void set_models(ch06_variant* v, int n) {
    for (int i = 0; i < n; ++i) {
        ch06_variant* x = &v[i];
        const int bad = x->geo.bm        ? gemm_model_vec(&x->geo, &x->model)
                        : x->fixed_model ? x->fixed_model(&x->model)
                                         : 0;
        if (bad) die("%s: a shared access is malformed", x->g.v.name);
        x->modelled = x->geo.bm || x->fixed_model;
    }
}

/* ---------------------------------------------------------------- lesson tables */

static void print_variants(const ch06_variant* v, int n) {
    printf("The kernels (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < n; ++i)
        if (!v[i].g.sweep)
            printf("  %d %-16s %s\n", v[i].g.v.number, v[i].g.v.name, v[i].g.v.description);
    printf("  8 db_*             the sweep: kernel 8 at other slice depths, layouts, lane grids\n");
}

static const char* slot_name(const ch06_variant* v) {
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

static void print_model(const ch06_variant* v, int n) {
    printf("\nShared memory, by the bank model: wavefronts per request of each access (ideal in\n"
           "brackets: the same instruction with every lane on its own consecutive element).\n");
    printf("%-17s %-26s %-22s %5s %15s\n", "kernel", "layout", "access", "bytes", "wavefronts");
    for (int i = 0; i < n; ++i) {
        if (!v[i].modelled) continue;
        for (int a = 0; a < v[i].model.n; ++a) {
            const gemm_access_cost* c = &v[i].model.access[a];
            printf("%-17s %-26s %-22s %5d %6.2f (%5.2f)%s\n", a ? "" : v[i].g.v.name,
                   a ? "" : slot_name(&v[i]), c->what, c->width, c->wavefronts, c->ideal,
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

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"type", CSV_TEXT, 0},
    {"kernel", CSV_INT, 0},
    {"M", CSV_INT, 0},
    {"N", CSV_INT, 0},
    {"K", CSV_INT, 0},
    {"sweep", CSV_INT, 0},
    {"bm", CSV_INT, 0},
    {"bn", CSV_INT, 0},
    {"bk", CSV_INT, 0},
    {"threads", CSV_INT, 0},
    {"stages", CSV_INT, 0},
    GEMM_CSV_RESULT_COLUMNS,
    {"model_st_wavefronts_per_request", CSV_REAL, 4},
    {"model_ld_wavefronts_per_request", CSV_REAL, 4},
};

static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const gemm_measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        /* Every measured record is one of VARIANTS, which begin with their gemm_variant. */
        const ch06_variant* x = (const ch06_variant*)m[i].v;
        csv_text(&t, "variant", x->g.v.name);
        csv_text(&t, "type", "float");
        csv_int(&t, "kernel", x->g.v.number);
        csv_int(&t, "M", m[i].s.M);
        csv_int(&t, "N", m[i].s.N);
        csv_int(&t, "K", m[i].s.K);
        csv_int(&t, "sweep", x->g.sweep);
        csv_int(&t, "bm", x->geo.bm);
        csv_int(&t, "bn", x->geo.bn);
        csv_int(&t, "bk", x->geo.bk);
        csv_int(&t, "threads", x->g.v.needs.threads);
        csv_int(&t, "stages", x->geo.stages);
        gemm_csv_result(&t, &m[i]);
        csv_real(&t, "model_st_wavefronts_per_request",
                 x->modelled && x->model.st >= 0 ? x->model.st : -1.0);
        csv_real(&t, "model_ld_wavefronts_per_request",
                 x->modelled && x->model.ld >= 0 ? x->model.ld : -1.0);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- pictures */

/* Kernel 7 (README, "The kernels"): gemm_vec's geometry in the variant table, which
 * gemm_pictures.cu draws with the index functions gemm_vec calls. */
static const gemm_geometry* warptile_geometry(void) {
    for (int i = 0; i < N_VARIANTS; ++i)
        if (!strcmp(VARIANTS[i].g.v.name, "warptile")) return &VARIANTS[i].geo;
    die("no warptile variant");
    return NULL;
}

static int draw_pictures(const char* dir) {
    return gemm_pictures(dir, warptile_geometry());
}

/* ---------------------------------------------------------------- main */

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    set_models(VARIANTS, N_VARIANTS);
    course_variants all = course_variants_of(VARIANTS, sizeof VARIANTS[0], N_VARIANTS);
    rc = course_variants_list(&CLI, &args, &all);
    if (rc >= 0) return rc;
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        print_variants(VARIANTS, N_VARIANTS);
        print_model(VARIANTS, N_VARIANTS);
    }
    course_device dev;
    course_target target;
    rc = course_variants_open(&args, &all, "the GEMM kernels", &dev, &target);
    if (rc >= 0) return rc;
    gemm_cublas_open();
    if (lesson || args.bench) gemm_print_resources(&all);

    if (args.check || lesson) {
        /* The check: the variant named, else all. */
        static ch06_variant sel[N_VARIANTS];
        int n_sel = 0;
        for (int i = 0; i < all.n; ++i)
            if (course_variant_selected(&args, &VARIANTS[i].g.v)) sel[n_sel++] = VARIANTS[i];
        course_variants checked = course_variants_of(sel, sizeof sel[0], n_sel);
        rc = gemm_run_check(CLI.program, &checked, &args, args.size_given ? (int)args.size : 1024);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static gemm_measurement m[512];
    const int n_m = gemm_run_bench(CLI.program, &all, &args, m);
    gemm_print_measurements(m, n_m);
    int bad = 0;
    for (int i = 0; i < n_m; ++i) bad |= gemm_wrong(&m[i]);
    if (args.csv) write_csv(args.csv, &dev, args.command_line, m, n_m);
    if (lesson) gemm_print_summary(CLI.program, &dev, &all, m, n_m, &args);
    if (bad) printf("benchmark: some outputs were WRONG (see above)\n");
    return bad ? EXIT_CHECK_FAILED : EXIT_OK;
}
