/* Chapter 08, part 2's variant table (sgemm.h): each row's launch, kernel, needs and bank model
 * from one list of template constants. Numbers: 4 chapter 06's kernel 8; 5 chapter 06's
 * geometry, A row-major; 6 the same, A swizzled (and the trap, A padded); 7 cuBLAS's geometry
 * (128 threads, 8 x 16 a lane); 8 the TMA. */
#include "exercise_schedule.cuh"
#include "sgemm.h"
#include "sgemm_auto.h"
#include "sgemm_launch.cuh"
#include "gemm/register_staged.cuh"
#include "host/check.h"

/* A block a tile; 16-byte copies and float4 stores only where every operand allows both. */
template <int BM, int BN, int BK, int NT, int LANES_M, int TN, int STAGES, int A_LAYOUT,
          typename SCHEDULE>
static void launch_async(const gemm_call* c) {
    run_async<BM, BN, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>(
        c, c->A, c->lda, c->B, c->ldb, gemm_float4_ok(c), sgemm_tiles(c, BM, BN, BK));
}

/* The TMA needs rows it can map (sgemm_rows_aligned): other operands (and K = 0) go to the
 * cp.async kernel of the same geometry with the same swizzle, as does a driver without the
 * encoder (course_tma_encoder). */
template <int BM, int BN, int NT, int LANES_M, int TN, int STAGES, int INTERLEAVE>
static void launch_tma(const gemm_call* c) {
    if (!course_tma_encoder() || c->K == 0 || !sgemm_rows_aligned((uintptr_t)c->A, c->lda) ||
        !sgemm_rows_aligned((uintptr_t)c->B, c->ldb)) {
        launch_async<BM, BN, 8, NT, LANES_M, TN, 3, ASYNC_A_SWIZZLED, reference_schedule>(c);
        return;
    }
    run_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>(c, c->A, c->lda, c->B, c->ldb,
                                                         sgemm_tiles(c, BM, BN, TMA_BK));
}

/* Chapter 06's best kernel (its kernel 8), timed here too. */
#define CH06_BEST gemm_vec<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2>
static void launch_06_best(const gemm_call* c) {
    if (!gemm_call_is_dense(c)) die("ch06_best takes dense matrices only (any_ld 0)");
    CH06_BEST<<<dim3((c->N + 127) / 128, (c->M + 127) / 128), 256>>>(
        c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C, gemm_float4_ok(c));
}

/* A cp.async row (BM = BN = 128): gemm_async under its geometry. */
#define ASYNC(NAME, NUMBER, DESCRIPTION, SWEEP, FAMILY, BK, NT, LANES_M, TN, STAGES, A_LAYOUT,     \
              SCHEDULE)                                                                            \
    {                                                                                              \
        .g = {.v = {.name = NAME,                                                                  \
                    .number = NUMBER,                                                              \
                    .description = DESCRIPTION,                                                    \
                    .kernel = (const void*)                                                        \
                        gemm_async<128, 128, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>,     \
                    .needs = {.arch = 80,                                                          \
                              .feature = "cp.async",                                               \
                              .dynamic_smem =                                                      \
                                  (size_t)async_smem_bytes(A_LAYOUT, 128, 128, BK, STAGES),        \
                              .threads = NT}},                                                     \
              .launch = launch_async<128, 128, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>,   \
              .sweep = SWEEP,                                                                      \
              .any_ld = 1},                                                                        \
        .family = FAMILY, .bk = BK, .stages = STAGES, .a_layout = A_LAYOUT, .tn = TN,              \
        .a_name = A_LAYOUT == ASYNC_A_SWIZZLED ? "Swizzle<3,4,3>" : "row-major",                   \
        .geo = {128, 128, BK, NT, LANES_M, TN, 0, A_LAYOUT},                                       \
    }

/* A TMA row: gemm_tma under its geometry, kernel 8. */
#define TMA(NAME, DESCRIPTION, FAMILY, BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE)                \
    {                                                                                              \
        .g = {.v = {.name = NAME,                                                                  \
                    .number = 8,                                                                   \
                    .description = DESCRIPTION,                                                    \
                    .kernel = (const void*)gemm_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>,  \
                    .needs = {.arch = 90,                                                          \
                              .feature = "the TMA",                                                \
                              .dynamic_smem = (size_t)tma_smem_bytes(BM, BN, STAGES),              \
                              .threads = NT}},                                                     \
              .launch = launch_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>,                   \
              .any_ld = 1},                                                                        \
        .family = FAMILY, .bk = TMA_BK, .stages = STAGES, .a_layout = ASYNC_A_SWIZZLED, .tn = TN,  \
        .a_name = INTERLEAVE ? "TMA 128B, rows 8 apart" : "TMA 128B swizzle", .tma = 1,            \
        .geo = {BM, BN, TMA_BK, NT, LANES_M, TN, INTERLEAVE, ASYNC_A_SWIZZLED},                    \
    }

static sgemm_variant VARIANTS[] = {
    {.g = {.v = {.name = "cublas",
                 .description =
                     "cuBLAS SGEMM, default math mode (fp32 FMA, TF32 off): the baseline",
                 .baseline = 1},
           .launch = gemm_launch_cublas,
           .any_ld = 1},
     .family = "cublas"},
    {.g = {.v = {.name = "ch06_best",
                 .number = 4,
                 .description = "chapter 06's kernel 8: registers stage the next slice, A "
                                "transposed and padded",
                 .kernel = (const void*)CH06_BEST,
                 .needs = {.threads = 256}},
           .launch = launch_06_best},
     .family = "ch06",
     .bk = 8,
     .stages = 2,
     .tn = 8,
     .a_name = "transposed, padded",
     .ch06 = {128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2}},
    ASYNC("async_2", 5,
          "cp.async into 2 stages, chapter 06's geometry (256 threads, 8 x 8 a lane), A row-major",
          0, "async", 8, 256, 4, 8, 2, ASYNC_A_ROW_MAJOR, reference_schedule),
    ASYNC("async_3", 5, "3 stages", 0, "async", 8, 256, 4, 8, 3, ASYNC_A_ROW_MAJOR,
          reference_schedule),
    ASYNC("async_4", 5, "4 stages", 0, "async", 8, 256, 4, 8, 4, ASYNC_A_ROW_MAJOR,
          reference_schedule),
    ASYNC("async_3_swizzled", 6, "3 stages, A through Swizzle<3,4,3> (the TMA's 128B)", 0,
          "async_swizzled", 8, 256, 4, 8, 3, ASYNC_A_SWIZZLED, reference_schedule),
    ASYNC("async_bk16_3", 6, "sweep: BK 16", 1, "async_swizzled", 16, 256, 4, 8, 3,
          ASYNC_A_SWIZZLED, reference_schedule),
    ASYNC("async_bk32_2", 6, "sweep: BK 32", 1, "async_swizzled", 32, 256, 4, 8, 2,
          ASYNC_A_SWIZZLED, reference_schedule),
    ASYNC("wide_3", 7,
          "cuBLAS's geometry: 128 threads, 8 x 16 a lane, 64 x 64 a warp; 3 stages, A row-major", 0,
          "wide", 8, 128, 8, 16, 3, ASYNC_A_ROW_MAJOR, reference_schedule),
    ASYNC("wide_3_swizzled", 7, "the same, A through Swizzle<3,4,3>", 0, "wide_swizzled", 8, 128, 8,
          16, 3, ASYNC_A_SWIZZLED, reference_schedule),
    ASYNC("wide_2_swizzled", 7, "sweep: 2 stages", 1, "wide_swizzled", 8, 128, 8, 16, 2,
          ASYNC_A_SWIZZLED, reference_schedule),
    ASYNC("wide_4_swizzled", 7, "sweep: 4 stages", 1, "wide_swizzled", 8, 128, 8, 16, 4,
          ASYNC_A_SWIZZLED, reference_schedule),
    TMA("tma_3",
        "the TMA (sm_90), chapter 06's geometry: 3 stages of BK = 32, A in its 128B swizzle", "tma",
        128, 128, 256, 4, 8, 3, 0),
    TMA("tma_4", "4 stages", "tma", 128, 128, 256, 4, 8, 4, 0),
    TMA("tma_wide_3_rows4",
        "the TMA, cuBLAS's geometry, 3 stages; a lane's rows 4 apart, as chapter 06's", "tma_wide",
        128, 128, 128, 8, 16, 3, 0),
    TMA("tma_wide_3",
        "the same, a lane's rows 8 apart: the 8 lanes of a column on consecutive rows", "tma_wide",
        128, 128, 128, 8, 16, 3, 1),
    TMA("tma_wide_256", "the same with 128 x 256 tiles, 256 threads", "tma_wide", 128, 256, 256, 8,
        16, 3, 1),
    /* async_3's kernel on the exercise's bookkeeping, compiled apart (solution.cu): what the
     * calls cost */
    ASYNC("async_exercise", 5, "3 stages, the bookkeeping from the exercise", 0, "async", 8, 256, 4,
          8, 3, ASYNC_A_ROW_MAJOR, exercise_schedule),
    /* Chapter 02's cure for a scalar tile, a float of padding per row, applied to A's slice: the
     * copies misaligned (alignment_trap.cu) */
    {.g = {.v = {.name = SGEMM_TRAP,
                 .number = 6,
                 .description = "the alignment trap: A padded by a float a row, copies "
                                "misaligned; runs only as --variant trap_padded --check",
                 .on_request = 1,
                 .kernel = (const void*)
                     gemm_async<128, 128, 8, 256, 4, 8, 2, ASYNC_A_PADDED, reference_schedule>,
                 .needs = {.arch = 80,
                           .feature = "cp.async",
                           .dynamic_smem = (size_t)async_smem_bytes(ASYNC_A_PADDED, 128, 128, 8, 2),
                           .threads = 256}},
           .launch = launch_async<128, 128, 8, 256, 4, 8, 2, ASYNC_A_PADDED, reference_schedule>},
     .family = "trap",
     .bk = 8,
     .stages = 2,
     .a_layout = ASYNC_A_PADDED,
     .tn = 8,
     .a_name = "padded",
     .geo = {128, 128, 8, 256, 4, 8, 0, ASYNC_A_PADDED}},
};
#undef ASYNC
#undef TMA
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* Every kernel's bank model, from its geometry; the trap's refusal is the trap's to show. A TMA
 * kernel's reads are the swizzled cp.async kernel's at BK = 32, and its fallback (launch_tma) is
 * not a variant of its own: the model checks that one's reads too. */
static void set_models(sgemm_variant* v, int n) {
    for (int i = 0; i < n; ++i) {
        sgemm_variant* x = &v[i];
        const char* why = NULL;
        if (x->g.v.on_request) continue;
        if (x->ch06.bm) {
            if (gemm_model_vec(&x->ch06, &x->model))
                die("%s: a shared access is malformed", x->g.v.name);
        } else if (x->geo.bm) {
            if (gemm_async_model(&x->geo, &x->model, &why))
                die("%s: the bank model refuses it: %s", x->g.v.name, why);
        } else {
            continue;
        }
        x->modelled = 1;
        if (x->tma) {
            async_geometry fallback = x->geo;
            fallback.bk = 8;
            fallback.interleave = 0;
            gemm_smem_cost unused;
            if (gemm_async_model(&fallback, &unused, &why))
                die("%s's cp.async fallback: the bank model refuses it: %s", x->g.v.name, why);
        }
    }
}

course_variants sgemm_variants(void) {
    set_models(VARIANTS, N_VARIANTS);
    return course_variants_of(VARIANTS, sizeof VARIANTS[0], N_VARIANTS);
}
