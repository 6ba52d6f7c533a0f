/* Chapter 08, part 3: the FP16 GEMM on mma.sync (hgemm_kernels.cuh) side by side in three
 * shared-memory layouts and a small tile sweep, then fed by the TMA (hgemm_tma_kernels.cuh);
 * checked against a CPU double reference on odd shapes, measured against cuBLAS (fp16 in, fp32
 * accumulate and out) and against the program's own mma.sync ceiling, in the same run.
 *
 * File layout: variants and the model, the check, the benchmark, the CSV. */
#include "hgemm.h"
#include "hgemm_kernels.cuh"
#include "hgemm_tma_kernels.cuh"
#include "tma_map.h"
#include "gemm/harness.h"
#include "host/bench.h"
#include "host/check.h"
#include "host/csv.h"
#include "host/rng.h"
#include "model/smem_model.h"
#include "model/swizzle_tile.h"

#include <cublas_v2.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- variants and the model */

typedef void (*hg_launch_fn)(const __half* A, const __half* B, float* C, int M, int N, int K,
                             float alpha, float beta);

typedef struct {
    const char* name;
    int number;
    const char* adds;
    int sweep;
    int bm, bn, bk, stages, layout, threads, smem;
    hg_launch_fn launch;
    const void* kernel;   /* the aligned kernel: its registers and spills go into the CSV */
    const void* kernel2;  /* the one for shapes whose rows are not 16-byte aligned */
    const void* fallback; /* the TMA variants', for aligned shapes they cannot take (K = 0) */
    int tma;              /* needs the TMA: skipped without it */
    int persistent;       /* one block an SM, C stored through the TMA (hg_store_tma) */
} hg_variant;

static const char* const LAYOUT_NAME[] = {"plain", "padded", "swizzled", "tma"};

template <int BM, int BN, int BK, int STAGES, int LAYOUT, int ALIGNED>
static void hg_kernel_launch(const __half* A, const __half* B, float* C, int M, int N, int K,
                             float alpha, float beta) {
    constexpr int WM = BM / 64, WN = BN / 64;
    const long long blocks = (long long)((M + BM - 1) / BM) * ((N + BN - 1) / BN);
    hgemm_mma<BM, BN, BK, WM, WN, STAGES, LAYOUT, ALIGNED>
        <<<(unsigned)blocks, WM * WN * 32, hgemm_smem_bytes<BM, BN, BK, STAGES, LAYOUT>()>>>(
            A, B, C, M, N, K, alpha, beta);
}

/* 16-byte chunks need rows of A and B 16-byte aligned: K and N multiples of 8 halves. */
template <int BM, int BN, int BK, int STAGES, int LAYOUT>
static void hg_launch(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                      float beta) {
    if (M == 0 || N == 0) return;
    const int aligned =
        K % 8 == 0 && N % 8 == 0 && (uintptr_t)A % 16 == 0 && (uintptr_t)B % 16 == 0;
    if (aligned)
        hg_kernel_launch<BM, BN, BK, STAGES, LAYOUT, 1>(A, B, C, M, N, K, alpha, beta);
    else
        hg_kernel_launch<BM, BN, BK, STAGES, LAYOUT, 0>(A, B, C, M, N, K, alpha, beta);
}

/* The TMA's tensor maps need 16-byte aligned rows and matrices and K > 0; other shapes take
 * hgemm_mma of the same tile, swizzled. A's box: 64 halves x BM rows; B's: 64 x 64, one a panel;
 * C's (PERSISTENT, which stores through it when beta = 0): 32 floats x 16 rows. One block a tile,
 * or PERSISTENT one an SM (the kernel's registers and shared memory leave room for no second). */
template <int BM, int BN, int STAGES, int PERSISTENT>
static void hg_tma_launch(const __half* A, const __half* B, float* C, int M, int N, int K,
                          float alpha, float beta) {
    if (M == 0 || N == 0) return;
    const int store_c = PERSISTENT && beta == 0.0f; /* C through the TMA: 16-byte aligned */
    const int aligned = K % 8 == 0 && N % 8 == 0 && (uintptr_t)A % 16 == 0 &&
                        (uintptr_t)B % 16 == 0 && (!store_c || (uintptr_t)C % 16 == 0);
    if (!tma_ready() || K == 0 || !aligned) {
        hg_launch<BM, BN, HG_TMA_BK, STAGES, HG_SWIZZLED>(A, B, C, M, N, K, alpha, beta);
        return;
    }
    CUtensorMap a, b, c = {};
    tma_map(&a, A, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, M, K, HG_TMA_BK, BM,
            CU_TENSOR_MAP_SWIZZLE_128B);
    tma_map(&b, B, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, K, N, 64, HG_TMA_BK,
            CU_TENSOR_MAP_SWIZZLE_128B);
    if (store_c)
        tma_map(&c, C, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, M, N, HG_C_BOX, HG_C_ROWS,
                CU_TENSOR_MAP_SWIZZLE_128B);
    long long blocks = (long long)((M + BM - 1) / BM) * ((N + BN - 1) / BN); /* the tiles */
    if (PERSISTENT) {
        int dev, sms;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        if (blocks > sms) blocks = sms;
    }
    if (PERSISTENT)
        hgemm_tma_persistent<BM, BN, STAGES><<<(unsigned)blocks, BM / 64 * (BN / 64) * 32,
                                               hgemm_tma_persistent_smem_bytes<BM, BN, STAGES>()>>>(
            a, b, c, C, M, N, K, alpha, beta);
    else
        hgemm_tma<BM, BN, STAGES>
            <<<(unsigned)blocks, BM / 64 * (BN / 64) * 32,
               hgemm_tma_smem_bytes<BM, BN, STAGES>()>>>(a, b, C, M, N, K, alpha, beta);
}

static cublasHandle_t hg_cublas;

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets B first. Default math: fp16
 * inputs, fp32 compute and output, tensor cores (on sm_90, wgmma). */
static void cublas_hgemm(const __half* A, const __half* B, float* C, int M, int N, int K,
                         float alpha, float beta) {
    if (M == 0 || N == 0) return;
    const cublasStatus_t s =
        cublasGemmEx(hg_cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F,
                     N > 0 ? N : 1, A, CUDA_R_16F, K > 0 ? K : 1, &beta, C, CUDA_R_32F,
                     N > 0 ? N : 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) die("cublasGemmEx failed with status %d", (int)s);
}

template <int BM, int BN, int BK, int STAGES, int LAYOUT>
static hg_variant hg_variant_of(const char* name, const char* adds, int sweep) {
    constexpr int WM = BM / 64, WN = BN / 64;
    hg_variant v = {name,
                    9,
                    adds,
                    sweep,
                    BM,
                    BN,
                    BK,
                    STAGES,
                    LAYOUT,
                    WM * WN * 32,
                    hgemm_smem_bytes<BM, BN, BK, STAGES, LAYOUT>(),
                    hg_launch<BM, BN, BK, STAGES, LAYOUT>,
                    (const void*)hgemm_mma<BM, BN, BK, WM, WN, STAGES, LAYOUT, 1>,
                    (const void*)hgemm_mma<BM, BN, BK, WM, WN, STAGES, LAYOUT, 0>,
                    NULL,
                    0,
                    0};
    return v;
}

template <int BM, int BN, int STAGES, int PERSISTENT>
static hg_variant hg_tma_variant(const char* name, const char* adds) {
    hg_variant v = hg_variant_of<BM, BN, HG_TMA_BK, STAGES, HG_SWIZZLED>(name, adds, 0);
    v.layout = HG_TMA;
    v.smem = PERSISTENT ? hgemm_tma_persistent_smem_bytes<BM, BN, STAGES>()
                        : hgemm_tma_smem_bytes<BM, BN, STAGES>();
    v.launch = hg_tma_launch<BM, BN, STAGES, PERSISTENT>;
    v.fallback = v.kernel;
    v.kernel = PERSISTENT ? (const void*)hgemm_tma_persistent<BM, BN, STAGES>
                          : (const void*)hgemm_tma<BM, BN, STAGES>;
    v.persistent = PERSISTENT;
    v.tma = 1;
    return v;
}

enum { N_HG = 10 };

static void hg_variants(hg_variant* v) {
    int n = 0;
    v[n++] = hg_variant{"hgemm_cublas",
                        0,
                        "cuBLAS, fp16 in, fp32 accumulate and out: the baseline",
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        cublas_hgemm,
                        NULL,
                        NULL,
                        NULL,
                        0,
                        0};
    v[n++] = hg_variant_of<128, 256, 32, 4, HG_PLAIN>(
        "hgemm_plain", "mma.sync, 128 x 256 tiles, 8 warps of 64 x 64, 4 stages; tiles plain", 0);
    v[n++] =
        hg_variant_of<128, 256, 32, 4, HG_PADDED>("hgemm_padded", "rows padded by 8 halves", 0);
    v[n++] = hg_variant_of<128, 256, 32, 4, HG_SWIZZLED>(
        "hgemm_swizzled", "Swizzle<2,3,3> on A, <3,3,5> on B (chapter 04's ldmatrix rule)", 0);
    v[n++] = hg_variant_of<128, 128, 32, 4, HG_SWIZZLED>("hgemm_128x128x32_s4", "sweep", 1);
    v[n++] = hg_variant_of<128, 128, 64, 3, HG_SWIZZLED>("hgemm_128x128x64_s3", "sweep", 1);
    v[n++] = hg_variant_of<128, 256, 64, 3, HG_SWIZZLED>("hgemm_128x256x64_s3", "sweep", 1);
    v[n++] = hg_variant_of<256, 128, 64, 3, HG_SWIZZLED>("hgemm_256x128x64_s3", "sweep", 1);
    v[n++] = hg_tma_variant<256, 128, 3, 0>(
        "hgemm_tma", "the sweep's best tile, 256 x 128 x 64 in 3 stages, fed by the TMA (sm_90)");
    v[n++] = hg_tma_variant<256, 128, 3, 1>(
        "hgemm_tma_persistent", "one block an SM walking the tiles; C stored through the TMA");
    if (n != N_HG) die("%d tensor-core variants, expected %d", n, N_HG);
}

static const char* const CEILING = "mma_ceiling";
enum { HG_WARMUP = 2, CEILING_NT = 256, CEILING_ITERS = 20000, CEILING_BLOCKS_PER_SM = 4 };

/* The variant called name: its index in v, or -1. */
static int hg_find(const hg_variant* v, const char* name) {
    for (int i = 0; i < N_HG; ++i)
        if (!strcmp(v[i].name, name)) return i;
    return -1;
}

/* Which variants run here (hgemm_judge): index for index with hg_variants, the ceiling last. */
static int hg_runs[N_HG + 1];

int hgemm_judge(const course_target* t) {
    hg_variant v[N_HG];
    hg_variants(v);
    int count = 0;
    for (int i = 0; i <= N_HG; ++i) {
        const int ceiling = i == N_HG;
        const char* name = ceiling ? CEILING : v[i].name;
        const void* kernel = ceiling ? (const void*)mma_ceiling : v[i].kernel;
        course_needs need = {0, NULL, 0, ceiling ? (int)CEILING_NT : v[i].threads};
        if (kernel) {
            need.arch = !ceiling && v[i].tma ? 90 : 80;
            need.feature = !ceiling && v[i].tma ? "the TMA" : "mma.sync.m16n8k16";
            need.dynamic_smem = ceiling ? 0 : (size_t)v[i].smem;
        }
        char why[256];
        hg_runs[i] = course_runs_on(t, kernel, &need, why, sizeof why);
        if (hg_runs[i] && !ceiling && v[i].tma && tma_encoder_missing(t, why, sizeof why))
            hg_runs[i] = 0;
        course_print_verdict(t, name, &need, hg_runs[i], why);
        count += hg_runs[i] && kernel;
    }
    return count;
}

int hgemm_runs(const char* name) {
    hg_variant v[N_HG];
    hg_variants(v);
    const int i = strcmp(name, CEILING) ? hg_find(v, name) : N_HG;
    return i >= 0 && hg_runs[i];
}

int hgemm_has_variant(const char* name) {
    hg_variant v[N_HG];
    hg_variants(v);
    return hg_find(v, name) >= 0 || !strcmp(name, CEILING);
}

void hgemm_list(const char* pad, int lesson) {
    hg_variant v[N_HG];
    hg_variants(v);
    for (int i = 0; i < N_HG; ++i)
        if (!lesson || !v[i].sweep)
            printf("%s%d %-20s %s\n", pad, v[i].number, v[i].name, v[i].adds);
    if (lesson) printf("%s- the tensor-core sweep (hgemm_BMxBNxBK_sSTAGES): --list\n", pad);
    printf("%s- %-20s mma.sync with its operands in registers, no memory: the tensor cores' "
           "ceiling\n",
           pad, CEILING);
}

/* The model's ldmatrix wavefronts per request of a variant's tiles: A (BM x BK, .x4) and B
 * (BK x BN, .x4.trans) each take 4 of a warp's 8 ldmatrix per k16 step. A padded tile is a plain
 * one with 8 more halves a row; a TMA tile is panels of 64 halves, each swizzled as a tile of
 * its own (a warp's matrix never straddles two). */
static double hg_model(const hg_variant* v, int* a_wf, int* b_wf) {
    const int pad = v->layout == HG_PADDED ? 8 : 0;
    const int sw = v->layout == HG_SWIZZLED || v->layout == HG_TMA, tma = v->layout == HG_TMA;
    const int a_cols = tma && v->bk > 64 ? 64 : v->bk, b_cols = tma && v->bn > 64 ? 64 : v->bn;
    const int au = a_cols / 8, bu = b_cols / 8;
    const int ab = au < 8 ? course_log2(au) : 3, as = au > 8 ? course_log2(au) : 3;
    const int bb = bu < 8 ? course_log2(bu) : 3, bs = bu > 8 ? course_log2(bu) : 3;
    swizzle_tile ta = {
        2, 8, (unsigned)(a_cols + pad), (unsigned)v->bm, sw ? ab : 0, sw ? 3 : 0, sw ? as : 0};
    swizzle_tile tb = {
        2, 8, (unsigned)(b_cols + pad), (unsigned)v->bk, sw ? bb : 0, sw ? 3 : 0, sw ? bs : 0};
    int ideal;
    *a_wf = swizzle_tile_worst_ldmatrix(&ta, &ideal);
    *b_wf = swizzle_tile_worst_ldmatrix(&tb, &ideal);
    if (*a_wf < 0 || *b_wf < 0) die("%s: no ldmatrix model", v->name);
    return (*a_wf + *b_wf) / 2.0;
}

/* The model's wavefronts per float2 store of hgemm_tma_persistent's C staging (hg_store_tma),
 * the worst of a chunk row's 16: the boxes' 128-byte rows plain or in the 128B swizzle
 * (hg_c_slot), lanes in mma order or with odd rows at j ^ 2 (hg_c_column). *ideal: 2. */
static int hg_c_stage_model(int swizzled, int odd_rows_swapped, int* ideal) {
    int worst = 0;
    for (unsigned j = 0; j < 8; ++j)
        for (unsigned h = 0; h < 2; ++h) {
            smem_access s;
            s.width = 8;
            s.op = SMEM_STORE;
            s.mask = 0xffffffffu;
            for (unsigned l = 0; l < 32; ++l) {
                const unsigned r = l / 4 + 8 * h, c = odd_rows_swapped
                                                          ? hgemm_c_staging_column(j, l)
                                                          : 8 * j + 2 * (l % 4);
                s.offset[l] = 4 * hgemm_c_staging_offset(r, c, swizzled);
            }
            smem_report rep;
            if (smem_analyze(&s, &rep)) die("hg_c_stage_model: a malformed access");
            if (rep.wavefronts > worst) worst = rep.wavefronts;
            *ideal = rep.ideal;
        }
    return worst;
}

void hgemm_print_model(void) {
    hg_variant v[N_HG];
    hg_variants(v);
    printf("\nTensor cores: ldmatrix wavefronts per request by the model (ideal 4), A = BM x BK\n"
           "halves read by .x4, B = BK x BN halves read by .x4.trans:\n");
    printf("%-20s %-9s %9s %9s %9s\n", "variant", "layout", "A", "B", "mean");
    for (int i = 0; i < N_HG; ++i) {
        if (!v[i].kernel) continue;
        int a, b;
        const double m = hg_model(&v[i], &a, &b);
        printf("%-20s %-9s %9d %9d %9.2f\n", v[i].name, LAYOUT_NAME[v[i].layout], a, b, m);
    }
    printf(
        "Plain, A's 64-byte rows put a matrix's 8 rows in 2 of the line's 8 slots (4-way) and\n"
        "B's 512-byte rows put them all in one (8-way); padding by 16 bytes or the swizzle\n"
        "spreads them over all 8 (chapter 04, \"ldmatrix\"), and so does the TMA's 128B mode.\n");
    int ideal;
    const int plain = hg_c_stage_model(0, 0, &ideal), swz = hg_c_stage_model(1, 0, &ideal),
              both = hg_c_stage_model(1, 1, &ideal);
    printf("\nhgemm_tma_persistent stages C for the TMA in chunks of 16 x 64 floats, a float2 a\n"
           "lane, 16 lanes a wavefront. Wavefronts per store by the model (ideal %d): rows plain\n"
           "%d; in the TMA's 128B swizzle %d; swizzled, odd rows taking their 8-column blocks in\n"
           "the order j ^ 2, %d (the kernel's: hgemm_tma_kernels.cuh, hg_c_column).\n",
           ideal, plain, swz, both);
}

/* Each kernel may use more than 48 KiB of dynamic shared memory: say so once. */
static void hg_configure(const hg_variant* v) {
    static int done;
    if (done) return;
    done = 1;
    if (cublasCreate(&hg_cublas) != CUBLAS_STATUS_SUCCESS) die("cublasCreate failed");
    for (int i = 0; i < N_HG; ++i) {
        if (!hg_runs[i]) continue;
        const void* kernels[3] = {v[i].kernel, v[i].kernel2, v[i].fallback};
        for (int k = 0; k < 3; ++k)
            if (kernels[k]) {
                /* the fallbacks need no more than the TMA kernel (its tiles less the slack) */
                CUDA_CHECK(cudaFuncSetAttribute(
                    kernels[k], cudaFuncAttributeMaxDynamicSharedMemorySize, v[i].smem));
            }
    }
}

/* ---------------------------------------------------------------- the check */

/* Random halves in [-1, 1): exactly representable, so the CPU reference sees what the GPU sees. */
static void fill_halves(__half* h, size_t n, unsigned long long* seed) {
    for (size_t i = 0; i < n; ++i)
        h[i] = __float2half((float)rng_u32(seed) / 4294967296.0f * 2.0f - 1.0f);
}

/* The tolerance, relative to |alpha| sum_k |a_ik b_kj| + |beta c_ij|: the products of halves
 * are exact in fp32, and each mma adds 16 of them into the fp32 accumulator, rounding (the tensor
 * cores may truncate the alignment of addends): K / 16 + 4 roundings, 16 FLT_EPSILON each. */
static double hg_tolerance(int K) {
    return 16.0 * FLT_EPSILON * (K / 16 + 4);
}

/* One shape, every selected variant, beta = 0 over NaN and beta = 0.5 over random C. */
static int hg_check_shape(const hg_variant* v, const char* only, gemm_shape s,
                          unsigned long long* seed) {
    const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N, nc = (size_t)s.M * s.N;
    __half* ha = (__half*)malloc((na ? na : 1) * sizeof(__half));
    __half* hb = (__half*)malloc((nb ? nb : 1) * sizeof(__half));
    float *c0 = (float*)malloc((nc ? nc : 1) * 4), *c = (float*)malloc((nc ? nc : 1) * 4);
    double *dot = (double*)malloc((nc ? nc : 1) * 8), *mag = (double*)malloc((nc ? nc : 1) * 8);
    if (!ha || !hb || !c0 || !c || !dot || !mag) die("out of host memory");
    fill_halves(ha, na, seed);
    fill_halves(hb, nb, seed);
    for (size_t i = 0; i < nc; ++i) c0[i] = (float)rng_u32(seed) / 4294967296.0f * 2.0f - 1.0f;
    for (int i = 0; i < s.M; ++i)
        for (int j = 0; j < s.N; ++j) {
            double d = 0, m = 0;
            for (int k = 0; k < s.K; ++k) {
                const double p = (double)__half2float(ha[(size_t)i * s.K + k]) *
                                 __half2float(hb[(size_t)k * s.N + j]);
                d += p;
                m += fabs(p);
            }
            dot[(size_t)i * s.N + j] = d;
            mag[(size_t)i * s.N + j] = m;
        }
    __half *da, *db;
    float* dc;
    CUDA_CHECK(cudaMalloc(&da, (na ? na : 1) * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&db, (nb ? nb : 1) * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dc, (nc ? nc : 1) * 4));
    CUDA_CHECK(cudaMemcpy(da, ha, na * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, hb, nb * sizeof(__half), cudaMemcpyHostToDevice));
    const float alpha = 1.5f, betas[2] = {0.0f, 0.5f};
    const double tol = hg_tolerance(s.K);
    int failed = 0;
    for (int i = 0; i < N_HG; ++i) {
        if ((only && strcmp(only, v[i].name)) || !hg_runs[i]) continue;
        for (int b = 0; b < 2; ++b) {
            const float beta = betas[b];
            if (beta == 0.0f)
                CUDA_CHECK(cudaMemset(dc, 0xff, nc * 4)); /* NaN: must be overwritten, not read */
            else
                CUDA_CHECK(cudaMemcpy(dc, c0, nc * 4, cudaMemcpyHostToDevice));
            v[i].launch(da, db, dc, s.M, s.N, s.K, alpha, beta);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(c, dc, nc * 4, cudaMemcpyDeviceToHost));
            size_t wrong = 0, first = 0;
            double worst = 0;
            for (size_t e = 0; e < nc; ++e) {
                const double want = alpha * dot[e] + beta * c0[e];
                const double scale = fabs(alpha) * mag[e] + fabs(beta * c0[e]);
                const double err = fabs((double)c[e] - want) / (scale > 0 ? scale : 1.0);
                if (!(err <= tol) && !wrong++) first = e;
                if (!(err <= worst)) worst = err;
            }
            if (wrong) {
                printf("check: %s %dx%dx%d beta %g: %zu of %zu WRONG (first at (%zu, %zu): %g, "
                       "want %g; worst error %.3g, tolerance %.3g)\n",
                       v[i].name, s.M, s.N, s.K, beta, wrong, nc, first / s.N, first % s.N,
                       c[first], alpha * dot[first] + beta * c0[first], worst, tol);
                failed = 1;
            }
        }
    }
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    free(ha), free(hb), free(c0), free(c), free(dot), free(mag);
    return failed;
}

int hgemm_check(const course_args* a, unsigned long long* seed, const char* only) {
    hg_variant v[N_HG];
    hg_variants(v);
    hg_configure(v);
    if (only && !strcmp(only, CEILING)) {
        printf("check: %s computes nothing to check\n", CEILING);
        return 0;
    }
    /* Edges in every direction, K below, at and past a slice, rows not 16-byte aligned (K or N
     * not a multiple of 8), K = 0 (C = beta C) with rows unaligned and aligned (hgemm_mma's two
     * paths, which the TMA variants fall back to at K = 0), 264 x 18440: 290 tiles of 256 x 128,
     * so that hgemm_tma_persistent's blocks, one an SM, take two or three each on the H200's 132
     * SMs (on any GPU of fewer than 290 SMs some take two; K = 72: two slices, the next tile's
     * first loaded during this one), and two shapes drawn from the seed.
     * The last two fixed ones keep, under the sanitizers' --size 132, the aligned path with
     * several slices: enough for the cp.async pipelines to refill a stage, not for the TMA's (3
     * stages of 64 k) or the persistent blocks, which 08_cp_async.*_hgemm sanitize at
     * 264 x 18440 x 456. */
    gemm_shape shapes[19] = {{1, 1, 1},      {1, 300, 7},      {300, 1, 9},     {17, 33, 9},
                             {128, 256, 32}, {129, 257, 65},   {300, 200, 104}, {64, 520, 1000},
                             {1000, 8, 16},  {257, 129, 8},    {511, 513, 517}, {33, 65, 0},
                             {72, 128, 0},   {264, 18440, 72}, {130, 128, 128}, {72, 128, 104}};
    int n = 16;
    for (int k = 0; k < 2; ++k)
        shapes[n++] = {1 + (int)rng_below(seed, 600), 1 + (int)rng_below(seed, 600),
                       1 + (int)rng_below(seed, 600)};
    n = gemm_select_check_shapes(a, shapes, n);
    int failed = 0;
    for (int i = 0; i < n; ++i) failed |= hg_check_shape(v, only, shapes[i], seed);
    printf("check: tensor-core GEMM, %d shape%s, beta 0 (over NaN) and 0.5, tolerance (K / 16 + "
           "4) x 16 FLT_EPSILON of sum |a b|: %s\n",
           n, n == 1 ? "" : "s", failed ? "FAILED" : "all variants agree with the CPU (double)");
    return failed;
}

/* ---------------------------------------------------------------- the benchmark */

typedef struct {
    const hg_variant* v; /* NULL: the ceiling */
    gemm_shape s;
    bench_result t;
    double tflops, of_ceiling, of_cublas, error;
} hg_measurement;

typedef struct {
    const hg_variant* v;
    const __half *a, *b;
    float* c;
    gemm_shape s;
    int blocks; /* the ceiling's */
} hg_ctx;

static void hg_bench_launch(void* p, int rep) {
    (void)rep;
    const hg_ctx* x = (const hg_ctx*)p;
    x->v->launch(x->a, x->b, x->c, x->s.M, x->s.N, x->s.K, 1.0f, 0.0f);
}

static void ceiling_launch(void* p, int rep) {
    (void)rep;
    const hg_ctx* x = (const hg_ctx*)p;
    mma_ceiling<<<(unsigned)x->blocks, CEILING_NT>>>(CEILING_ITERS, x->c);
}

/* The largest |x - r| over the largest |r|: how far an output is from cuBLAS's; NaN if any
 * element is NaN (an element never written keeps the NaN poison). */
static double hg_distance(const float* x, const float* r, size_t n) {
    double diff = 0, top = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = fabs((double)x[i] - r[i]);
        if (d != d) return NAN;
        if (d > diff) diff = d;
        if (fabs(r[i]) > top) top = fabs(r[i]);
    }
    return diff / (top > 0 ? top : 1.0);
}

static void hg_write_csv(const char* path, const course_device* dev, const char* cmd,
                         const hg_measurement* m, int n) {
    FILE* f = csv_open(path, dev, cmd,
                       "variant,kernel,M,N,K,sweep,bm,bn,bk,stages,layout,threads,dynamic_smem,"
                       "flops,median_ms,min_ms,max_ms,reps,launches,tflops,of_ceiling,of_cublas,"
                       "error_vs_cublas,registers,spill_bytes,model_ldsm_wavefronts_per_request,"
                       "model_st_wavefronts_per_request");
    for (int i = 0; i < n; ++i) {
        const hg_variant* v = m[i].v;
        int regs = 0, spill = 0, aw, bw;
        double model = -1, model_st = -1; /* -1: no shared stores to predict */
        if (v && v->persistent) {
            int ideal;
            model_st = hg_c_stage_model(1, 1, &ideal);
        }
        if (v && v->kernel) {
            cudaFuncAttributes fa;
            CUDA_CHECK(cudaFuncGetAttributes(&fa, v->kernel));
            regs = fa.numRegs;
            spill = (int)fa.localSizeBytes;
            model = hg_model(v, &aw, &bw);
        }
        const double flops = m[i].tflops * m[i].t.median_ms * 1e9;
        fprintf(f,
                "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%d,%.0f,%.6f,%.6f,%.6f,%d,%d,%.1f,%.4f,%.4f,"
                "%.3g,%d,%d,%.4f,%.4f\n",
                v ? csv_field(v->name) : CEILING, v ? v->number : 9, m[i].s.M, m[i].s.N, m[i].s.K,
                v ? v->sweep : 0, v ? v->bm : 0, v ? v->bn : 0, v ? v->bk : 0, v ? v->stages : 0,
                v && v->kernel ? LAYOUT_NAME[v->layout] : "-", v ? v->threads : CEILING_NT,
                v ? v->smem : 0, flops, m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].t.reps,
                m[i].t.launches, m[i].tflops, m[i].of_ceiling, m[i].of_cublas, m[i].error, regs,
                spill, model, model_st);
    }
    csv_close(f, path);
    printf("wrote %s\n", path);
}

int hgemm_bench(const char* program, const course_args* a, const course_device* dev,
                const char* only, const char* csv, int lesson) {
    hg_variant v[N_HG];
    hg_variants(v);
    hg_configure(v);
    for (int i = 0; i < N_HG; ++i)
        if (v[i].kernel && hg_runs[i]) {
            char name[64];
            snprintf(name, sizeof name, "%s (rows not 16-byte aligned)", v[i].name);
            bench_warn_if_spilling(v[i].kernel, v[i].name);
            bench_warn_if_spilling(v[i].kernel2, name);
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
    if (only && !strcmp(only, CEILING)) n_shapes = 0;
    static hg_measurement m[64];
    int n_m = 0, bad = 0;

    /* The ceiling: 4 blocks of 8 warps per SM, 8 independent mma chains a warp. */
    float* sink;
    const int ceiling_blocks = dev->sm_count * CEILING_BLOCKS_PER_SM;
    CUDA_CHECK(cudaMalloc(&sink, (size_t)ceiling_blocks * CEILING_NT * 4));
    hg_ctx cx = {NULL, NULL, NULL, sink, {0, 0, 0}, ceiling_blocks};
    hg_measurement ceiling = {};
    /* launches: counts the GEMM kernels only, what the ncu test profiles (none here) */
    ceiling.t = bench_run(ceiling_launch, &cx, HG_WARMUP, (int)a->reps, 0);
    ceiling.tflops = 2.0 * 16 * 8 * 16 * 8.0 * CEILING_ITERS * ceiling_blocks * (CEILING_NT / 32) /
                     (ceiling.t.median_ms * 1e9);
    ceiling.of_ceiling = 1.0;
    ceiling.of_cublas = -1.0; /* not a GEMM: -1 in the CSV */
    CUDA_CHECK(cudaFree(sink));
    m[n_m++] = ceiling;

    for (int k = 0; k < n_shapes; ++k) {
        const gemm_shape s = shapes[k];
        if (s.K == 0) { /* only from --shape: the check covers it */
            printf("benchmark: tensor cores at %dx%dx0 skipped: K = 0 (C = beta C) has no "
                   "multiply-add to time\n",
                   s.M, s.N);
            continue;
        }
        const size_t na = (size_t)s.M * s.K, nb = (size_t)s.K * s.N, nc = (size_t)s.M * s.N;
        course_require_device_memory(program, 2.0 * (na + nb) + 8.0 * nc,
                                     "the tensor-core benchmark");
        __half *da, *db;
        float *dc, *dref;
        CUDA_CHECK(cudaMalloc(&da, (na ? na : 1) * 2));
        CUDA_CHECK(cudaMalloc(&db, (nb ? nb : 1) * 2));
        CUDA_CHECK(cudaMalloc(&dc, (nc ? nc : 1) * 4));
        CUDA_CHECK(cudaMalloc(&dref, (nc ? nc : 1) * 4));
        {
            unsigned long long seed = a->seed;
            __half* h = (__half*)malloc((na > nb ? na : nb) * 2 + 2);
            if (!h) die("out of host memory");
            fill_halves(h, na, &seed);
            CUDA_CHECK(cudaMemcpy(da, h, na * 2, cudaMemcpyHostToDevice));
            fill_halves(h, nb, &seed);
            CUDA_CHECK(cudaMemcpy(db, h, nb * 2, cudaMemcpyHostToDevice));
            free(h);
        }
        float *hc = (float*)malloc(nc * 4 + 4), *href = (float*)malloc(nc * 4 + 4);
        if (!hc || !href) die("out of host memory");
        double cublas_ms = 0;
        for (int i = 0; i < N_HG; ++i) {
            if (only && strcmp(only, v[i].name) && i) continue; /* cuBLAS always: the baseline */
            if (!hg_runs[i]) continue;
            hg_ctx x = {&v[i], da, db, i ? dc : dref, s, 0};
            if (i) CUDA_CHECK(cudaMemset(dc, 0xff, nc * 4));
            hg_measurement* r = &m[n_m++];
            r->v = &v[i];
            r->s = s;
            r->t = bench_run(hg_bench_launch, &x, HG_WARMUP, (int)a->reps, v[i].kernel ? 1 : 0);
            r->tflops = 2.0 * s.M * s.N * (double)s.K / (r->t.median_ms * 1e9);
            r->of_ceiling = r->tflops / ceiling.tflops;
            if (!i) cublas_ms = r->t.median_ms;
            r->of_cublas = cublas_ms / r->t.median_ms;
            if (!i) {
                CUDA_CHECK(cudaMemcpy(href, dref, nc * 4, cudaMemcpyDeviceToHost));
                continue;
            }
            CUDA_CHECK(cudaMemcpy(hc, dc, nc * 4, cudaMemcpyDeviceToHost));
            r->error = hg_distance(hc, href, nc);
            if (!(r->error <= 1e-3)) {
                printf("benchmark: %s %dx%dx%d differs from cuBLAS by %.3g of its largest "
                       "element: WRONG\n",
                       v[i].name, s.M, s.N, s.K, r->error);
                bad = 1;
            }
        }
        free(hc), free(href);
        CUDA_CHECK(cudaFree(da));
        CUDA_CHECK(cudaFree(db));
        CUDA_CHECK(cudaFree(dc));
        CUDA_CHECK(cudaFree(dref));
    }

    printf("\ntensor cores: median of %ld repetitions after %d warm-ups; TFLOP/s = 2 M N K / "
           "time; the ceiling: mma.sync on registers\n",
           a->reps, HG_WARMUP);
    printf("%-20s %16s %10s %10s %10s %8s %9s %9s %10s\n", "variant", "shape", "median ms",
           "min ms", "max ms", "TFLOP/s", "% ceiling", "% cuBLAS", "vs cuBLAS");
    for (int i = 0; i < n_m; ++i) {
        char shape[32], cublas[16], error[16];
        snprintf(shape, sizeof shape, "%dx%dx%d", m[i].s.M, m[i].s.N, m[i].s.K);
        snprintf(cublas, sizeof cublas, "%.1f%%", 100 * m[i].of_cublas);
        snprintf(error, sizeof error, "%.2g", m[i].error);
        printf("%-20s %16s %10.4f %10.4f %10.4f %8.1f %8.1f%% %9s %10s\n",
               m[i].v ? m[i].v->name : CEILING, m[i].v ? shape : "-", m[i].t.median_ms,
               m[i].t.min_ms, m[i].t.max_ms, m[i].tflops, 100 * m[i].of_ceiling,
               m[i].v ? cublas : "-", m[i].v ? error : "-");
    }
    if (csv) {
        char path[COURSE_PATH_MAX];
        if (course_side_path(csv, HGEMM_CSV, path, sizeof path))
            die("--csv %s: too long a path", csv);
        hg_write_csv(path, dev, a->command_line, m, n_m);
    }
    if (lesson) {
        printf("\n| tensor cores | shape | TFLOP/s | of the mma.sync ceiling | of cuBLAS |\n"
               "| --- | --- | ---: | ---: | ---: |\n");
        for (int i = 1; i < n_m; ++i)
            if (!m[i].v->sweep)
                printf("| %s | %dx%dx%d | %.1f | %.1f%% | %.1f%% |\n", m[i].v->name, m[i].s.M,
                       m[i].s.N, m[i].s.K, m[i].tflops, 100 * m[i].of_ceiling,
                       100 * m[i].of_cublas);
        printf("| %s | - | %.1f | 100%% | - |\n", CEILING, ceiling.tflops);
    }
    return bad;
}
