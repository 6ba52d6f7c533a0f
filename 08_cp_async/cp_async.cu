/* Chapter 08: cp.async, from one streaming kernel to a pipelined SGEMM.
 *
 * Part 1 (stencil_kernels.cuh): a 17-point stencil staged tile by tile in shared memory, with
 * plain loads, with cp.async, and double-buffered; one block per SM, so that only the pipeline
 * can hide a load's latency. GB/s against cudaMemcpy's (which moves the same bytes).
 * Part 2 (gemm_async_kernels.cuh): chapter 06's kernel 8 fed by cp.async, 2 to 4 stages, A
 * plain or swizzled, against cuBLAS and chapter 06's best kernel, through chapter 06's harness
 * (gemm_harness.h: check, benchmark, summary).
 * Part 3 (hgemm.cu, hgemm_kernels.cuh, hgemm_tma_kernels.cuh): an FP16 GEMM on the tensor
 * cores, mma.sync fed by cp.async and ldmatrix, tiles plain, padded and swizzled, then by the
 * TMA; against cuBLAS and mma.sync's ceiling.
 *
 * File layout: the GEMM variants, the stencil's check and benchmark, the CSVs, main. */
#include "exercise_schedule.cuh"
#include "gemm_async_kernels.cuh"
#include "gemm_tma_kernels.cuh"
#include "hgemm.h"
#include "stencil_kernels.cuh"
#include "tma_map.h"
#include "gemm/harness.h"
#include "gemm/register_staged.cuh"
#include "host/bench.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "host/device.h"
#include "host/rng.h"

#include <cudaTypedefs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The stencil's side file of --csv FILE (course_side_path: x.csv -> x_stencil.csv). */
#define STENCIL_CSV "_stencil"

static const course_cli CLI = {
    "08_cp_async",
    "cp.async: a stencil staged with plain loads, cp.async and two stages; chapter 06's SGEMM\n"
    "fed by cp.async in 2 to 4 stages, A plain or swizzled, against cuBLAS; an FP16 GEMM on the\n"
    "tensor cores (cp.async, ldmatrix, mma.sync) against cuBLAS and mma.sync's ceiling.",
    "the GEMM benchmark's largest cube N^3, as chapter 06 (the stencil runs\n"
    "                  at 2^20 .. 2^28 floats); with --check, the largest GEMM dimension\n"
    "                  checked, and n up to N^2 for the stencil",
    8192,
    20,
    16384,
    3, /* --shape MxNxK: the GEMM part */
    1 << 17,
    0,
    {STENCIL_CSV, HGEMM_CSV} /* beside --csv: the stencil's and the tensor cores' CSVs */};

/* ---------------------------------------------------------------- the GEMM variants */

/* Its dynamic shared memory granted by gemm_configure (main). */
template <int BM, int BN, int BK, int NT, int LANES_M, int TN, int STAGES, int A_LAYOUT,
          typename SCHEDULE>
static void launch_async(const gemm_call* c) {
    constexpr int bytes = async_smem_bytes(A_LAYOUT, BM, BN, BK, STAGES);
    gemm_async<BM, BN, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>
        <<<dim3((c->N + BN - 1) / BN, (c->M + BM - 1) / BM), NT, bytes>>>(
            c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C, gemm_float4_ok(c));
}

/* What the harness does not need to know of a kernel: its tile, stages, layout and bank model. */
typedef struct {
    const char* family;       /* the CSV's and the plots' grouping: async, wide, tma, tma_wide */
    int bk, stages, a_layout; /* async_a_layout (chapter 06's kernel: 0) */
    int tn;                   /* a lane's micro-tile columns (rows: 8) */
    int sm90;                 /* 1: the TMA's, dropped below sm_90 */
    const char* a_name;       /* A's layout in shared memory, for the table */
    int modelled;
    gemm_smem_cost model;
    double model_st; /* what the CSV gives ncu for stores: -1 for the copies (see README) */
} kernel_info;

static kernel_info* new_variant(gemm_variant* all, kernel_info* infos, int* n, const char* name,
                                int number, const char* adds, int sweep) {
    kernel_info* x = &infos[*n];
    gemm_variant* v = &all[(*n)++];
    memset(v, 0, sizeof *v);
    v->v.name = name;
    v->v.number = number;
    v->v.description = adds;
    v->sweep = sweep;
    memset(x, 0, sizeof *x);
    return x;
}

/* The bank model of a geometry; the copies' stores are left out of the CSV (model_st -1): ncu
 * counts cp.async's shared-memory writes as no store instruction (README). */
static void model_variant(kernel_info* x, const char* name, const async_geometry* geo) {
    const char* why;
    if (gemm_async_model(geo, &x->model, &why)) die("%s: the bank model refuses it: %s", name, why);
    x->modelled = 1;
    x->model_st = -1;
}

template <int BM, int BN, int BK, int NT, int LANES_M, int TN, int STAGES, int A_LAYOUT,
          typename SCHEDULE>
static void async_variant(gemm_variant* all, kernel_info* infos, int* n, const char* family,
                          const char* name, int number, const char* adds, int sweep) {
    gemm_variant* v = &all[*n];
    kernel_info* x = new_variant(all, infos, n, name, number, adds, sweep);
    v->launch = launch_async<BM, BN, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>;
    v->v.kernel = (const void*)gemm_async<BM, BN, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE>;
    v->v.needs.threads = NT;
    v->v.needs.dynamic_smem = async_smem_bytes(A_LAYOUT, BM, BN, BK, STAGES);
    v->v.needs.arch = 80;
    v->v.needs.feature = "cp.async";
    x->family = family;
    x->bk = BK;
    x->stages = STAGES;
    x->a_layout = A_LAYOUT;
    x->tn = TN;
    x->a_name = A_LAYOUT == ASYNC_A_SWIZZLED ? "Swizzle<3,4,3>" : "row-major";
    const async_geometry geo = {BM, BN, BK, NT, LANES_M, TN, 0, A_LAYOUT};
    model_variant(x, name, &geo);
}

/* ---------------------------------------------------------------- the TMA (sm_90)
 * The driver's cuTensorMapEncodeTiled, through the runtime (no link to libcuda); NULL below
 * sm_90. A tensor map per operand and call: A's box BK x BM floats in the 128B swizzle, B's
 * BN x BK as it is, zeros past the edges. The maps need 16-byte aligned rows: other shapes (and
 * K = 0) go to the cp.async kernel of the same geometry with the same swizzle. */
static PFN_cuTensorMapEncodeTiled_v12000 tma_encode;

int tma_ready(void) {
    return tma_encode != NULL;
}

int tma_encoder_missing(const course_target* t, char* why, size_t len) {
    if (t->from_table || tma_ready()) return 0;
    snprintf(why, len, "the driver offers no cuTensorMapEncodeTiled (update it)");
    return 1;
}

void tma_map(CUtensorMap* map, const void* X, CUtensorMapDataType type, int element_bytes, int rows,
             int cols, int box_cols, int box_rows, CUtensorMapSwizzle swizzle) {
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows},
               strides[1] = {(cuuint64_t)cols * element_bytes};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, steps[2] = {1, 1};
    const CUresult rc =
        tma_encode(map, type, 2, (void*)X, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc != CUDA_SUCCESS) die("cuTensorMapEncodeTiled failed with CUresult %d", (int)rc);
}

template <int BM, int BN, int NT, int LANES_M, int TN, int STAGES, int INTERLEAVE>
static void launch_tma(const gemm_call* c) {
    if (!tma_encode || c->K == 0 || !gemm_float4_ok(c)) {
        launch_async<BM, BN, 8, NT, LANES_M, TN, 3, ASYNC_A_SWIZZLED, reference_schedule>(c);
        return;
    }
    CUtensorMap a, b;
    tma_map(&a, c->A, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->M, c->K, TMA_BK, BM,
            CU_TENSOR_MAP_SWIZZLE_128B);
    tma_map(&b, c->B, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->K, c->N, BN, TMA_BK,
            CU_TENSOR_MAP_SWIZZLE_NONE);
    gemm_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>
        <<<dim3((c->N + BN - 1) / BN, (c->M + BM - 1) / BM), NT, tma_smem_bytes(BM, BN, STAGES)>>>(
            a, b, c->M, c->N, c->K, c->alpha, c->beta, c->C);
}

template <int BM, int BN, int NT, int LANES_M, int TN, int STAGES, int INTERLEAVE>
static void tma_variant(gemm_variant* all, kernel_info* infos, int* n, const char* family,
                        const char* name, const char* adds, int sweep) {
    gemm_variant* v = &all[*n];
    kernel_info* x = new_variant(all, infos, n, name, 8, adds, sweep);
    v->launch = launch_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>;
    v->v.kernel = (const void*)gemm_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE>;
    v->v.needs.threads = NT;
    v->v.needs.dynamic_smem = tma_smem_bytes(BM, BN, STAGES);
    v->v.needs.arch = 90;
    v->v.needs.feature = "the TMA";
    x->family = family;
    x->bk = TMA_BK;
    x->stages = STAGES;
    x->a_layout = ASYNC_A_SWIZZLED;
    x->tn = TN;
    x->a_name = INTERLEAVE ? "TMA 128B, rows 8 apart" : "TMA 128B swizzle";
    x->sm90 = 1;
    /* The reads are the swizzled cp.async kernel's at BK = 32; the TMA's writes are no LSU
     * instruction at all. */
    const async_geometry geo = {BM, BN, TMA_BK, NT, LANES_M, TN, INTERLEAVE, ASYNC_A_SWIZZLED};
    model_variant(x, name, &geo);
    /* The fallback (launch_tma) is not a variant of its own: the model checks its reads too. */
    const async_geometry fallback = {BM, BN, 8, NT, LANES_M, TN, 0, ASYNC_A_SWIZZLED};
    gemm_smem_cost unused;
    const char* why;
    if (gemm_async_model(&fallback, &unused, &why))
        die("%s's cp.async fallback: the bank model refuses it: %s", name, why);
}

/* Chapter 06's best kernel (its kernel 8), timed here too. */
static void launch_06_best(const gemm_call* c) {
    gemm_vec<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2>
        <<<dim3((c->N + 127) / 128, (c->M + 127) / 128), 256>>>(
            c->M, c->N, c->K, c->alpha, c->A, c->B, c->beta, c->C, gemm_float4_ok(c));
}

enum { N_GEMM = 18 };

/* Numbers: 5 chapter 06's geometry, A row-major; 6 the same, A swizzled; 7 cuBLAS's geometry
 * (128 threads, 8 x 16 a lane); 8 the TMA. */
static int gemm_variants(gemm_variant* v, kernel_info* x) {
    int n = 0;
    memset(v, 0, N_GEMM * sizeof *v);
    memset(x, 0, N_GEMM * sizeof *x);
    kernel_info* k =
        new_variant(v, x, &n, "cublas", 0,
                    "cuBLAS SGEMM, default math mode (fp32 FMA, TF32 off): the baseline", 0);
    v[0].launch = gemm_launch_cublas;
    v[0].v.baseline = 1;
    k->family = "cublas";
    k->model_st = -1;
    k = new_variant(v, x, &n, "ch06_best", 4,
                    "chapter 06's kernel 8: registers stage the next slice, A transposed and "
                    "padded",
                    0);
    v[1].launch = launch_06_best;
    v[1].v.kernel = (const void*)gemm_vec<128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2, 2>;
    v[1].v.needs.threads = 256;
    {
        const gemm_geometry geo = {128, 128, 8, 256, SPREAD_WARP, 4, SLOT_PADDED, 0, 2};
        if (gemm_model_vec(&geo, &k->model)) die("ch06_best: a shared access is malformed");
        k->family = "ch06";
        k->bk = 8;
        k->stages = 2;
        k->tn = 8;
        k->modelled = 1;
        k->a_name = "transposed, padded";
        k->model_st = k->model.st;
    }
    async_variant<128, 128, 8, 256, 4, 8, 2, ASYNC_A_ROW_MAJOR, reference_schedule>(
        v, x, &n, "async", "async_2", 5,
        "cp.async into 2 stages, chapter 06's geometry (256 threads, 8 x 8 a lane), A row-major",
        0);
    async_variant<128, 128, 8, 256, 4, 8, 3, ASYNC_A_ROW_MAJOR, reference_schedule>(
        v, x, &n, "async", "async_3", 5, "3 stages", 0);
    async_variant<128, 128, 8, 256, 4, 8, 4, ASYNC_A_ROW_MAJOR, reference_schedule>(
        v, x, &n, "async", "async_4", 5, "4 stages", 0);
    async_variant<128, 128, 8, 256, 4, 8, 3, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "async_swizzled", "async_3_swizzled", 6,
        "3 stages, A through Swizzle<3,4,3> (the TMA's 128B)", 0);
    async_variant<128, 128, 16, 256, 4, 8, 3, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "async_swizzled", "async_bk16_3", 6, "sweep: BK 16", 1);
    async_variant<128, 128, 32, 256, 4, 8, 2, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "async_swizzled", "async_bk32_2", 6, "sweep: BK 32", 1);
    async_variant<128, 128, 8, 128, 8, 16, 3, ASYNC_A_ROW_MAJOR, reference_schedule>(
        v, x, &n, "wide", "wide_3", 7,
        "cuBLAS's geometry: 128 threads, 8 x 16 a lane, 64 x 64 a warp; 3 stages, A row-major", 0);
    async_variant<128, 128, 8, 128, 8, 16, 3, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "wide_swizzled", "wide_3_swizzled", 7, "the same, A through Swizzle<3,4,3>", 0);
    async_variant<128, 128, 8, 128, 8, 16, 2, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "wide_swizzled", "wide_2_swizzled", 7, "sweep: 2 stages", 1);
    async_variant<128, 128, 8, 128, 8, 16, 4, ASYNC_A_SWIZZLED, reference_schedule>(
        v, x, &n, "wide_swizzled", "wide_4_swizzled", 7, "sweep: 4 stages", 1);
    tma_variant<128, 128, 256, 4, 8, 3, 0>(
        v, x, &n, "tma", "tma_3",
        "the TMA (sm_90), chapter 06's geometry: 3 stages of BK = 32, A in its 128B swizzle", 0);
    tma_variant<128, 128, 256, 4, 8, 4, 0>(v, x, &n, "tma", "tma_4", "4 stages", 0);
    tma_variant<128, 128, 128, 8, 16, 3, 0>(
        v, x, &n, "tma_wide", "tma_wide_3_rows4",
        "the TMA, cuBLAS's geometry, 3 stages; a lane's rows 4 apart, as chapter 06's", 0);
    tma_variant<128, 128, 128, 8, 16, 3, 1>(
        v, x, &n, "tma_wide", "tma_wide_3",
        "the same, a lane's rows 8 apart: the 8 lanes of a column on consecutive rows", 0);
    tma_variant<128, 256, 256, 8, 16, 3, 1>(v, x, &n, "tma_wide", "tma_wide_256",
                                            "the same with 128 x 256 tiles, 256 threads", 0);
    async_variant<128, 128, 8, 256, 4, 8, 3, ASYNC_A_ROW_MAJOR, exercise_schedule>(
        v, x, &n, "async", "async_exercise", 5, "3 stages, the bookkeeping from the exercise", 0);
    return n;
}

static void print_model(const gemm_variant* v, const kernel_info* x, int n) {
    printf("\nShared memory, by the bank model: wavefronts per request of each access per K-slice\n"
           "(ideal in brackets: every lane on its own consecutive element; a broadcast can go\n"
           "below it).\n");
    printf("%-17s %3s %6s %-22s %-26s %5s %15s\n", "kernel", "BK", "stages", "A layout", "access",
           "bytes", "wavefronts");
    for (int i = 0; i < n; ++i) {
        if (!x[i].modelled || v[i].sweep) continue;
        int shown = 0;
        for (int a = 0; a < x[i].model.n; ++a) {
            const gemm_access_cost* c = &x[i].model.access[a];
            if (x[i].sm90 && c->is_store) continue; /* the TMA writes through no LSU instruction */
            if (shown++)
                printf("%-17s %3s %6s %-22s", "", "", "", "");
            else
                printf("%-17s %3d %6d %-22s", v[i].v.name, x[i].bk, x[i].stages, x[i].a_name);
            printf(" %-26s %5d %6.2f (%5.2f)\n", c->what, c->width, c->wavefronts, c->ideal);
        }
    }
}

/* ---------------------------------------------------------------- the alignment trap
 * Chapter 02's cure for a scalar tile, a float of padding per row, applied to A's cp.async slice:
 * row m starts at 4 (BK + 1) m bytes, so the 16-byte copy of chunk (m, k) lands at
 * 4 (m (BK + 1) + k), aligned only when m is a multiple of 4. The bank model refuses it before
 * any launch; on the GPU the copy faults. The fault leaves the context unusable, so the trap runs
 * only when named, with --check, and the program ends after it. */
enum { TRAP_TILE = 128 };
static constexpr int TRAP_SMEM = async_smem_bytes(ASYNC_A_PADDED, TRAP_TILE, TRAP_TILE, 8, 2);
static void (*const trap_kernel)(int, int, int, float, const float*, const float*, float, float*,
                                 int) =
    gemm_async<TRAP_TILE, TRAP_TILE, 8, 256, 4, 8, 2, ASYNC_A_PADDED, reference_schedule>;

static int run_trap(void) {
    gemm_smem_cost cost;
    const char* why = NULL;
    const async_geometry geo = {128, 128, 8, 256, 4, 8, 0, ASYNC_A_PADDED};
    gemm_async_model(&geo, &cost, &why);
    printf("trap_padded: A's rows padded to 9 floats (36 bytes); the bank model refuses the "
           "copies: %s\n",
           why ? why : "it accepts them (a bug in the model)");
    enum { S = TRAP_TILE };
    float *A, *B, *C;
    CUDA_CHECK(cudaMalloc(&A, S * 8 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&B, 8 * S * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&C, S * S * sizeof(float)));
    CUDA_CHECK(cudaMemset(A, 0, S * 8 * sizeof(float)));
    CUDA_CHECK(cudaMemset(B, 0, 8 * S * sizeof(float)));
    trap_kernel<<<1, 256, TRAP_SMEM>>>(S, S, 8, 1.0f, A, B, 0.0f, C, 1);
    const cudaError_t launch = cudaGetLastError(), run = cudaDeviceSynchronize();
    if (launch == cudaSuccess && run == cudaErrorMisalignedAddress) {
        printf("trap_padded: the GPU stopped the kernel: %s (%s). A 16-byte cp.async needs a "
               "16-byte aligned destination; a swizzle moves whole 16-byte chunks and keeps "
               "every one aligned. (The context is now unusable: the program ends here.)\n",
               cudaGetErrorName(run), cudaGetErrorString(run));
        return EXIT_OK;
    }
    printf("trap_padded: expected cudaErrorMisalignedAddress, got %s at launch and %s at the "
           "end\n",
           cudaGetErrorName(launch), cudaGetErrorName(run));
    return EXIT_CHECK_FAILED;
}

/* ---------------------------------------------------------------- the stencil: check */

typedef void (*stencil_kernel)(const float*, float*, long long);

typedef struct {
    const char* name;
    int number;
    const char* adds;
    stencil_kernel kernel; /* NULL: cudaMemcpy, the baseline */
    int arch;              /* needs.h: 80 for cp.async, 0 for none */
} stencil_variant;

static const stencil_variant STENCILS[] = {
    {"memcpy", 0, "cudaMemcpy device to device of x: the same bytes, nothing computed", NULL, 0},
    {"stencil_sync", 1, "staged with plain loads: each tile's latency exposed", stencil_sync, 0},
    {"stencil_async", 2, "staged with cp.async (16-byte copies, no registers), then waited for",
     stencil_async, 80},
    {"stencil_double", 3, "two stages: the next tile's copies in flight during this one's math",
     stencil_double, 80},
};
enum { N_STENCIL = sizeof STENCILS / sizeof STENCILS[0] };

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

static void run_stencil(const stencil_variant* v, const float* x, float* y, long long n,
                        int blocks) {
    if (!v->kernel) {
        CUDA_CHECK(cudaMemcpyAsync(y, x, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice));
        return;
    }
    v->kernel<<<blocks, STENCIL_NT>>>(x, y, n);
}

/* Every stencil on n = 1 .. 1000003 (up to max_n), bit for bit. Three blocks, so that a block
 * walks several tiles (and the double buffer turns over) at small n too. */
static int check_stencil(unsigned long long* seed, long long max_n, const char* only,
                         const int* runs) {
    static const long long sizes[] = {1, 7, 8, 1023, 1024, 1025, 4099, 100003, 1000003};
    const int blocks = 3;
    if (only && !strcmp(only, "memcpy")) {
        printf("check: memcpy is cudaMemcpy, the benchmark's baseline: nothing to check\n");
        return 0;
    }
    float w[2 * STENCIL_RADIUS + 1];
    for (int j = 0; j <= 2 * STENCIL_RADIUS; ++j)
        w[j] = (float)(rng_u32(seed) / 4294967296.0 - 0.5);
    CUDA_CHECK(cudaMemcpyToSymbol(stencil_w, w, sizeof w));
    int failed = 0;
    int checked = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        const long long n = sizes[k];
        if (n > max_n) break;
        ++checked;
        float *h = (float*)malloc((size_t)n * 4), *ref = (float*)malloc((size_t)n * 4),
              *got = (float*)malloc((size_t)n * 4);
        if (!h || !ref || !got) die("out of host memory");
        for (long long i = 0; i < n; ++i) h[i] = (float)(rng_u32(seed) / 4294967296.0 * 2 - 1);
        stencil_reference(h, w, n, ref);
        float *dx, *dy;
        CUDA_CHECK(cudaMalloc(&dx, (size_t)n * 4 + 16));
        CUDA_CHECK(cudaMalloc(&dy, (size_t)n * 4 + 16));
        CUDA_CHECK(cudaMemcpy(dx, h, (size_t)n * 4, cudaMemcpyHostToDevice));
        for (int v = 1; v < N_STENCIL; ++v) {
            if ((only && strcmp(only, STENCILS[v].name)) || !runs[v]) continue;
            CUDA_CHECK(cudaMemset(dy, 0xff, (size_t)n * 4)); /* NaN */
            run_stencil(&STENCILS[v], dx, dy, n, blocks);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(got, dy, (size_t)n * 4, cudaMemcpyDeviceToHost));
            for (long long i = 0; i < n; ++i)
                if (!(got[i] == ref[i])) {
                    printf("  %s, n = %lld: y[%lld] = %.9g, expected %.9g (bit for bit)\n",
                           STENCILS[v].name, n, i, got[i], ref[i]);
                    failed = 1;
                    break;
                }
        }
        CUDA_CHECK(cudaFree(dx));
        CUDA_CHECK(cudaFree(dy));
        free(h);
        free(ref);
        free(got);
    }
    printf("check: the stencils %s (%d sizes from 1, 3 blocks, bit for bit against the CPU)\n",
           failed ? "FAILED" : "right", checked);
    return failed;
}

/* ---------------------------------------------------------------- the stencil: benchmark */

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
 * each measurement going on from where the last stopped (as chapter 07). GB/s = 8 n / time. */
static int bench_stencil(const course_args* a, const course_device* dev, int blocks,
                         const int* runs, stencil_measurement* m) {
    const long long n_max = 1LL << 28;
    const long long floats = n_max > 3 * (long long)dev->l2_bytes / 4
                                 ? n_max + 16
                                 : 3 * (long long)dev->l2_bytes / 4 + 16;
    course_require_device_memory(CLI.program, (floats + n_max) * 4.0, "the stencil benchmark");
    float *base, *y;
    CUDA_CHECK(cudaMalloc(&base, (size_t)floats * 4));
    CUDA_CHECK(cudaMalloc(&y, (size_t)n_max * 4 + 16));
    CUDA_CHECK(cudaMemset(base, 0, (size_t)floats * 4));
    int n_m = 0;
    long long cursor = 0;
    for (long long n = 1LL << 20; n <= n_max; n *= 4) {
        const long long stride = (n + 15) / 16 * 16, sets = (floats - 16) / stride;
        double memcpy_ms = 0;
        for (int v = 0; v < N_STENCIL; ++v) {
            if ((a->variant && strcmp(a->variant, STENCILS[v].name) && v) || !runs[v]) continue;
            stencil_ctx b = {&STENCILS[v], base, y, n, stride, sets, 0, blocks};
            b.first = (cursor + stride - 1) / stride % sets;
            cursor = (b.first + WARMUP + a->reps) % sets * stride;
            stencil_measurement* x = &m[n_m++];
            x->v = &STENCILS[v];
            x->n = n;
            x->t = bench_run(stencil_launch, &b, WARMUP, (int)a->reps, STENCILS[v].kernel ? 1 : 0);
            x->gbps = 8.0 * n / (x->t.median_ms * 1e6);
            if (!v) memcpy_ms = x->t.median_ms;
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
        printf("%-16s %11lld %10.4f %10.4f %10.4f %8.0f %8.1f%%\n", m[i].v->name, m[i].n,
               m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].gbps, 100 * m[i].of_memcpy);
    return n_m;
}

/* ---------------------------------------------------------------- the CSVs */

static void write_gemm_csv(const char* path, const course_device* dev, const char* cmd,
                           const gemm_variant* all, const kernel_info* info,
                           const gemm_measurement* m, int n) {
    FILE* f = csv_open(path, dev, cmd,
                       "variant,type,kernel,family,M,N,K,sweep,bk,stages,a_layout,tn,threads,"
                       "dynamic_smem,"
                       "flops,median_ms,min_ms,max_ms,reps,launches,gflops,of_cublas,"
                       "error_vs_cublas,registers,spill_bytes,smem_bytes,blocks_per_sm,"
                       "model_st_wavefronts_per_request,model_ld_wavefronts_per_request");
    for (int i = 0; i < n; ++i) {
        const gemm_variant* v = m[i].v;
        const kernel_info* x = &info[v - all];
        const gemm_resources r = gemm_kernel_resources(v);
        fprintf(
            f,
            "%s,float,%d,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f,%.3g,"
            "%d,%d,%d,%d,%.4f,%.4f\n",
            csv_field(v->v.name), v->v.number, x->family, m[i].s.M, m[i].s.N, m[i].s.K, v->sweep,
            x->bk, x->stages, x->a_layout, x->tn, v->v.needs.threads, (int)v->v.needs.dynamic_smem,
            2.0 * m[i].s.M * m[i].s.N * (double)m[i].s.K, m[i].t.median_ms, m[i].t.min_ms,
            m[i].t.max_ms, m[i].t.reps, m[i].t.launches, m[i].gflops, m[i].of_cublas, m[i].error,
            r.regs, r.spill_bytes, r.smem_bytes, r.blocks_per_sm, x->model_st,
            x->modelled ? x->model.ld : -1.0);
    }
    csv_close(f, path);
    printf("wrote %s\n", path);
}

/* The stencil's measurements go next to the GEMM's: FILE with .csv replaced by _stencil.csv. */
static void write_stencil_csv(const char* gemm_path, const course_device* dev, const char* cmd,
                              const stencil_measurement* m, int n) {
    char path[COURSE_PATH_MAX];
    if (course_side_path(gemm_path, STENCIL_CSV, path, sizeof path))
        die("--csv %s: too long a path", gemm_path);
    FILE* f = csv_open(path, dev, cmd,
                       "variant,type,kernel,n,bytes_moved,median_ms,min_ms,max_ms,reps,launches,"
                       "gbps,of_memcpy");
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s,float,%d,%lld,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f\n",
                csv_field(m[i].v->name), m[i].v->number, m[i].n, 8.0 * m[i].n, m[i].t.median_ms,
                m[i].t.min_ms, m[i].t.max_ms, m[i].t.reps, m[i].t.launches, m[i].gbps,
                m[i].of_memcpy);
    csv_close(f, path);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- main */

/* The variants: every one for --list (a line each, "number name what"); for the lesson, indented,
 * the sweep folded into one line. */
static void print_variants(const gemm_variant* g, int ng, int lesson) {
    const char* pad = lesson ? "  " : "";
    if (lesson) printf("The kernels (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < N_STENCIL; ++i)
        printf("%s%d %-17s %s\n", pad, STENCILS[i].number, STENCILS[i].name, STENCILS[i].adds);
    for (int i = 0; i < ng; ++i)
        if (!lesson || !g[i].sweep)
            printf("%s%d %-17s %s\n", pad, g[i].v.number, g[i].v.name, g[i].v.description);
    if (lesson) printf("  - the sweep (async_bk*, wide_2/4_swizzled): --list\n");
    printf("%s- trap_padded       the alignment trap: A padded by a float a row, copies "
           "misaligned; runs only as --variant trap_padded --check\n",
           pad);
    hgemm_list(pad, lesson);
}

/* The driver's tensor-map encoder: on a GPU of compute capability 9.0 or newer only. */
static void tma_find_encoder(const course_device* dev) {
    if (dev->cc_major >= 9)
        tma_encode =
            (PFN_cuTensorMapEncodeTiled_v12000)course_driver_function("cuTensorMapEncodeTiled");
}

/* Which variants run on t (needs.h), each that does not printed with the reason: the stencils
 * (stencil_runs), the SGEMM's (gemm_runs; the TMA's also need the driver's encoder on a device),
 * the alignment trap and the tensor cores' (hgemm_judge). Returns how many of the chapter's own
 * kernels run: the baselines (memcpy, stencil_sync, cuBLAS, chapter 06's kernel) not counted. */
static int judge(const course_target* t, const gemm_variant* g, const kernel_info* info, int ng,
                 int* stencil_runs, int* gemm_runs, int* trap_runs) {
    int count = 0;
    char why[256];
    for (int i = 0; i < N_STENCIL; ++i) {
        const course_needs need = {STENCILS[i].arch, "cp.async", 0, STENCIL_NT};
        stencil_runs[i] =
            course_runs_on(t, (const void*)STENCILS[i].kernel, &need, why, sizeof why);
        course_print_verdict(t, STENCILS[i].name, &need, stencil_runs[i], why);
        count += stencil_runs[i] && STENCILS[i].arch;
    }
    course_variants cv = course_variants_of((void*)g, sizeof *g, ng);
    course_judge(t, &cv, gemm_runs);
    for (int i = 0; i < ng; ++i) {
        if (gemm_runs[i] && info[i].sm90 && tma_encoder_missing(t, why, sizeof why)) {
            gemm_runs[i] = 0;
            printf("%s skipped: %s\n", g[i].v.name, why);
        }
        count += gemm_runs[i] && g[i].v.needs.arch;
    }
    const course_needs trap = {80, "cp.async", TRAP_SMEM, 256};
    *trap_runs = course_runs_on(t, (const void*)trap_kernel, &trap, why, sizeof why);
    course_print_verdict(t, "trap_padded", &trap, *trap_runs, why);
    return count + hgemm_judge(t);
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    static gemm_variant g[N_GEMM], sel[N_GEMM];
    static kernel_info info[N_GEMM];
    static int stencil_runs[N_STENCIL], gemm_runs[N_GEMM], trap_runs;
    int ng = gemm_variants(g, info);
    if (ng != N_GEMM) die("%d GEMM variants, expected %d", ng, N_GEMM);
    int n_sel = 0, stencil_named = 0;
    const int hgemm_named = args.variant && hgemm_has_variant(args.variant);
    for (int i = 0; i < ng; ++i) n_sel += !args.variant || !strcmp(g[i].v.name, args.variant);
    for (int i = 0; i < N_STENCIL; ++i)
        stencil_named |= args.variant && !strcmp(STENCILS[i].name, args.variant);
    const int trap = args.variant && !strcmp(args.variant, "trap_padded");
    if (trap && !args.check && !args.list)
        return course_usage_error(&CLI, "trap_padded runs only with --check (its fault leaves "
                                        "the GPU context unusable)");
    if (!n_sel && !stencil_named && !trap && !hgemm_named)
        return course_usage_error(&CLI, "no variant '%s' (see --list)", args.variant);
    if (stencil_named && args.shape_given)
        return course_usage_error(&CLI, "--shape is the GEMM's; %s is a stencil", args.variant);
    course_target target;
    if (args.list) {
        print_variants(g, ng, 0);
        if (course_target_of_table(args.gpu, &target))
            course_chapter_verdict(
                &target, judge(&target, g, info, ng, stencil_runs, gemm_runs, &trap_runs), NULL, 1);
        return EXIT_OK;
    }
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        print_variants(g, ng, 1);
        print_model(g, info, ng);
        hgemm_print_model();
    }
    course_device dev;
    rc = course_device_open(&dev, 7, 5, "the cp.async chapter");
    if (rc != EXIT_OK) return rc;
    course_device_print(&dev);
    course_target_of_device(&dev, &target);
    tma_find_encoder(&dev);
    const int own = judge(&target, g, info, ng, stencil_runs, gemm_runs, &trap_runs);
    course_keep(info, sizeof info[0], ng, gemm_runs);
    ng = course_keep(g, sizeof g[0], ng, gemm_runs);
    n_sel = 0;
    for (int i = 0; i < ng; ++i)
        if (!args.variant || !strcmp(g[i].v.name, args.variant)) sel[n_sel++] = g[i];
    int named_runs =
        !args.variant || n_sel || (trap && trap_runs) || (hgemm_named && hgemm_runs(args.variant));
    for (int i = 0; i < N_STENCIL; ++i)
        named_runs |= stencil_named && stencil_runs[i] && !strcmp(STENCILS[i].name, args.variant);
    rc = course_chapter_verdict(&target, own, args.variant, named_runs);
    if (rc != EXIT_OK) return rc;
    if (trap) return run_trap();
    const int hgemm_part = (!args.variant || hgemm_named) && hgemm_runs("mma_ceiling");
    gemm_cublas_open();
    course_variants all = course_variants_of(g, sizeof g[0], ng);
    gemm_configure(&all);
    if (lesson || args.bench) gemm_print_resources(&all);
    const int blocks = dev.sm_count; /* one block per SM: the pipeline alone hides latency */

    if (args.check || lesson) {
        unsigned long long seed = args.seed;
        int failed = 0;
        if ((!n_sel && !hgemm_named) || stencil_named || !args.variant)
            failed |= check_stencil(&seed, args.size_given ? args.size * args.size : 1000003,
                                    stencil_named ? args.variant : NULL, stencil_runs);
        if (n_sel && !stencil_named) {
            course_variants checked = course_variants_of(sel, sizeof sel[0], n_sel);
            failed |= gemm_run_check(CLI.program, &checked, &args,
                                     args.size_given ? (int)args.size : 1024) != EXIT_OK;
        }
        if (hgemm_part) failed |= hgemm_check(&args, &seed, hgemm_named ? args.variant : NULL);
        if (failed || args.check) return failed ? EXIT_CHECK_FAILED : EXIT_OK;
    }
    static stencil_measurement sm[64];
    int n_sm = 0;
    if (!args.shape_given && (!args.variant || stencil_named))
        n_sm = bench_stencil(&args, &dev, blocks, stencil_runs, sm);
    static gemm_measurement m[512];
    int n_m = 0, bad = 0;
    if (!stencil_named && !hgemm_named) {
        n_m = gemm_run_bench(CLI.program, &all, &args, m);
        gemm_print_measurements(m, n_m);
        for (int i = 0; i < n_m; ++i) bad |= gemm_wrong(&m[i]);
    }
    if (args.csv) {
        write_gemm_csv(args.csv, &dev, args.command_line, g, info, m, n_m);
        write_stencil_csv(args.csv, &dev, args.command_line, sm, n_sm);
    }
    if (lesson) gemm_print_summary(CLI.program, &dev, &all, m, n_m, &args);
    if (hgemm_part)
        bad |= hgemm_bench(CLI.program, &args, &dev, hgemm_named ? args.variant : NULL, args.csv,
                           lesson);
    if (bad) printf("benchmark: some outputs were WRONG (see above)\n");
    return bad ? EXIT_CHECK_FAILED : EXIT_OK;
}
