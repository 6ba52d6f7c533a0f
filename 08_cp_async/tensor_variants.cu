/* Chapter 08, part 3's variant table and launches (tensor.h). Numbers, as the lesson steps through
 * them: 9 to 11 hgemm_mma with its tiles plain, padded, swizzled (and the sweep, swizzled); 12
 * and 13 the TMA's kernels; 14 the mma.sync ceiling; 16 to 19 and 21 the wgmma kernels
 * (hgemm_wgmma.h) and 20 their ceiling (15 is part 4's auto). */
#include "hgemm_kernels.cuh"
#include "hgemm_layout.h"
#include "hgemm_tma_kernels.cuh"
#include "hgemm_wgmma.h"
#include "tensor.h"
#include "host/check.h"
#include "host/tma_map.h"
#include "model/wgmma_desc.h"

#include <stdint.h>

template <int BM, int BN, int BK, int STAGES, int LAYOUT, int ALIGNED>
static void launch_mma_kernel(const tensor_call* c) {
    constexpr int WM = BM / 64, WN = BN / 64;
    const long long blocks = (long long)((c->M + BM - 1) / BM) * ((c->N + BN - 1) / BN);
    hgemm_mma<BM, BN, BK, WM, WN, STAGES, LAYOUT, ALIGNED>
        <<<(unsigned)blocks, WM * WN * 32, hgemm_smem_bytes<BM, BN, BK, STAGES, LAYOUT>()>>>(
            c->A, c->B, c->C, c->M, c->N, c->K, c->alpha, c->beta);
}

/* 16-byte chunks need rows of A and B 16-byte aligned: K and N multiples of 8 halves. */
template <int BM, int BN, int BK, int STAGES, int LAYOUT>
static void launch_mma(const tensor_call* c) {
    if (c->M == 0 || c->N == 0) return;
    const int aligned =
        c->K % 8 == 0 && c->N % 8 == 0 && (uintptr_t)c->A % 16 == 0 && (uintptr_t)c->B % 16 == 0;
    if (aligned)
        launch_mma_kernel<BM, BN, BK, STAGES, LAYOUT, 1>(c);
    else
        launch_mma_kernel<BM, BN, BK, STAGES, LAYOUT, 0>(c);
}

/* The TMA's kernels take the calls tensor_tma_takes allows; other calls take hgemm_mma of the
 * same tile, swizzled. A's box: 64 halves x BM rows; B's: 64 x 64, one a panel. */
template <int BM>
static void tma_maps(const tensor_call* c, CUtensorMap* a, CUtensorMap* b) {
    course_tma_map_2d(a, c->A, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, c->M, c->K, BM, HG_TMA_BK,
                      CU_TENSOR_MAP_SWIZZLE_128B);
    course_tma_map_2d(b, c->B, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, c->K, c->N, HG_TMA_BK, 64,
                      CU_TENSOR_MAP_SWIZZLE_128B);
}

/* One block a tile. */
template <int BM, int BN, int STAGES>
static void launch_tma(const tensor_call* c) {
    if (c->M == 0 || c->N == 0) return;
    if (!tensor_tma_takes(c, 0)) {
        launch_mma<BM, BN, HG_TMA_BK, STAGES, HG_SWIZZLED>(c);
        return;
    }
    CUtensorMap a, b;
    tma_maps<BM>(c, &a, &b);
    const long long tiles = (long long)((c->M + BM - 1) / BM) * ((c->N + BN - 1) / BN);
    hgemm_tma<BM, BN, STAGES>
        <<<(unsigned)tiles, BM / 64 * (BN / 64) * 32, hgemm_tma_smem_bytes<BM, BN, STAGES>()>>>(
            a, b, c->C, c->M, c->N, c->K, c->alpha, c->beta);
}

/* One block an SM (the kernel's registers and shared memory leave room for no second), C through
 * the TMA when beta = 0: its map's boxes 32 floats x 16 rows. */
template <int BM, int BN, int STAGES>
static void launch_tma_persistent(const tensor_call* c) {
    if (c->M == 0 || c->N == 0) return;
    const int stores_c = c->beta == 0.0f;
    if (!tensor_tma_takes(c, stores_c)) {
        launch_mma<BM, BN, HG_TMA_BK, STAGES, HG_SWIZZLED>(c);
        return;
    }
    CUtensorMap a, b, map_c = {};
    tma_maps<BM>(c, &a, &b);
    if (stores_c)
        course_tma_map_2d(&map_c, c->C, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->M, c->N, HG_C_ROWS,
                          HG_C_BOX, CU_TENSOR_MAP_SWIZZLE_128B);
    long long blocks = (long long)((c->M + BM - 1) / BM) * ((c->N + BN - 1) / BN); /* the tiles */
    int dev, sms;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (blocks > sms) blocks = sms;
    hgemm_tma_persistent<BM, BN, STAGES><<<(unsigned)blocks, BM / 64 * (BN / 64) * 32,
                                           hgemm_tma_persistent_smem_bytes<BM, BN, STAGES>()>>>(
        a, b, map_c, c->C, c->M, c->N, c->K, c->alpha, c->beta);
}

/* A wgmma kernel (hgemm_wgmma.cu) where its tensor maps take the call, else hgemm_mma's swizzled
 * 256 x 128 tile, as the TMA's kernels fall back. */
template <int KIND>
static void launch_wgmma(const tensor_call* c) {
    if (c->M == 0 || c->N == 0) return;
    if (!hgemm_wgmma_launch(KIND, c)) launch_mma<256, 128, HG_TMA_BK, 3, HG_SWIZZLED>(c);
}

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets B first. Default math: fp16
 * inputs, fp32 compute and output, tensor cores (on sm_90, wgmma). */
static void launch_cublas(const tensor_call* c) {
    if (c->M == 0 || c->N == 0) return;
    const int N = c->N, K = c->K;
    const cublasStatus_t s =
        cublasGemmEx(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, c->M, K, &c->alpha, c->B, CUDA_R_16F,
                     N > 0 ? N : 1, c->A, CUDA_R_16F, K > 0 ? K : 1, &c->beta, c->C, CUDA_R_32F,
                     N > 0 ? N : 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) die("cublasGemmEx failed with status %d", (int)s);
}

void tensor_launch_ceiling(int blocks, float* out) {
    mma_ceiling<<<(unsigned)blocks, CEILING_NT>>>(CEILING_ITERS, out);
}

/* A row of hgemm_mma: its aligned and unaligned kernels, launch and needs from one list of
 * template constants; 64 x 64 a warp. */
#define MMA(NAME, NUMBER, DESCRIPTION, SWEEP, BM, BN, BK, STAGES, LAYOUT)                          \
    {                                                                                              \
        .v = {.name = NAME,                                                                        \
              .number = NUMBER,                                                                    \
              .description = DESCRIPTION,                                                          \
              .kernel = (const void*)hgemm_mma<BM, BN, BK, BM / 64, BN / 64, STAGES, LAYOUT, 1>,   \
              .needs = {.arch = 80,                                                                \
                        .feature = "mma.sync.m16n8k16",                                            \
                        .dynamic_smem = (size_t)hgemm_smem_bytes<BM, BN, BK, STAGES, LAYOUT>(),    \
                        .threads = BM / 64 * (BN / 64) * 32}},                                     \
        .launch = launch_mma<BM, BN, BK, STAGES, LAYOUT>, .sweep = SWEEP, .bm = BM, .bn = BN,      \
        .bk = BK, .stages = STAGES, .layout = LAYOUT,                                              \
        .unaligned_kernel =                                                                        \
            (const void*)hgemm_mma<BM, BN, BK, BM / 64, BN / 64, STAGES, LAYOUT, 0>,               \
    }

/* A row of the TMA's: KERNEL<BM, BN, STAGES> and its launch, hgemm_mma's swizzled tile behind. */
#define TMA(NAME, NUMBER, DESCRIPTION, KERNEL, LAUNCH, SMEM_BYTES, BM, BN, STAGES, STORES_C)       \
    {                                                                                              \
        .v = {.name = NAME,                                                                        \
              .number = NUMBER,                                                                    \
              .description = DESCRIPTION,                                                          \
              .kernel = (const void*)KERNEL<BM, BN, STAGES>,                                       \
              .needs = {.arch = 90,                                                                \
                        .feature = "the TMA",                                                      \
                        .dynamic_smem = (size_t)SMEM_BYTES<BM, BN, STAGES>(),                      \
                        .threads = BM / 64 * (BN / 64) * 32}},                                     \
        .launch = LAUNCH<BM, BN, STAGES>, .bm = BM, .bn = BN, .bk = HG_TMA_BK, .stages = STAGES,   \
        .layout = HG_TMA,                                                                          \
        .unaligned_kernel =                                                                        \
            (const void*)hgemm_mma<BM, BN, HG_TMA_BK, BM / 64, BN / 64, STAGES, HG_SWIZZLED, 0>,   \
        .fallback_kernel =                                                                         \
            (const void*)hgemm_mma<BM, BN, HG_TMA_BK, BM / 64, BN / 64, STAGES, HG_SWIZZLED, 1>,   \
        .stores_c_through_tma = STORES_C,                                                          \
    }

/* A row of the wgmma kernels': what hgemm_wgmma.h says of KIND, its fallback hgemm_mma's. */
#define WGMMA(NAME, NUMBER, DESCRIPTION, KIND)                                                     \
    {                                                                                              \
        .v = {.name = NAME,                                                                        \
              .number = NUMBER,                                                                    \
              .description = DESCRIPTION,                                                          \
              .kernel = hgemm_wgmma_info_of(KIND).kernel,                                          \
              .needs = {.arch = 90,                                                                \
                        .feature = "wgmma",                                                        \
                        .dynamic_smem = hgemm_wgmma_info_of(KIND).dynamic_smem,                    \
                        .threads = hgemm_wgmma_info_of(KIND).threads,                              \
                        .arch_specific = 1}},                                                      \
        .launch = launch_wgmma<KIND>, .bm = hgemm_wgmma_info_of(KIND).bm,                          \
        .bn = hgemm_wgmma_info_of(KIND).bn, .bk = HG_TMA_BK,                                       \
        .stages = hgemm_wgmma_info_of(KIND).stages,                                                \
        .layout = HG_WGMMA + hgemm_wgmma_info_of(KIND).mode,                                       \
        .unaligned_kernel = (const void*)hgemm_mma<256, 128, HG_TMA_BK, 4, 2, 3, HG_SWIZZLED, 0>,  \
        .fallback_kernel = (const void*)hgemm_mma<256, 128, HG_TMA_BK, 4, 2, 3, HG_SWIZZLED, 1>,   \
        .stores_c_through_tma = hgemm_wgmma_info_of(KIND).stores_c,                                \
    }

static tensor_variant VARIANTS[] = {
    {.v = {.name = "hgemm_cublas",
           .description = "cuBLAS, fp16 in, fp32 accumulate and out: the baseline",
           .baseline = 1},
     .launch = launch_cublas},
    MMA("hgemm_plain", 9, "mma.sync, 128 x 256 tiles, 8 warps of 64 x 64, 4 stages; tiles plain", 0,
        128, 256, 32, 4, HG_PLAIN),
    MMA("hgemm_padded", 10, "rows padded by 8 halves", 0, 128, 256, 32, 4, HG_PADDED),
    MMA("hgemm_swizzled", 11, "Swizzle<2,3,3> on A, <3,3,5> on B (chapter 04's ldmatrix rule)", 0,
        128, 256, 32, 4, HG_SWIZZLED),
    MMA("hgemm_128x128x32_s4", 11, "sweep", 1, 128, 128, 32, 4, HG_SWIZZLED),
    MMA("hgemm_128x128x64_s3", 11, "sweep", 1, 128, 128, 64, 3, HG_SWIZZLED),
    MMA("hgemm_128x256x64_s3", 11, "sweep", 1, 128, 256, 64, 3, HG_SWIZZLED),
    MMA("hgemm_256x128x64_s3", 11, "sweep", 1, 256, 128, 64, 3, HG_SWIZZLED),
    TMA("hgemm_tma", 12,
        "the sweep's best tile, 256 x 128 x 64 in 3 stages, fed by the TMA (sm_90)", hgemm_tma,
        launch_tma, hgemm_tma_smem_bytes, 256, 128, 3, 0),
    TMA("hgemm_tma_persistent", 13, "one block an SM walking the tiles; C stored through the TMA",
        hgemm_tma_persistent, launch_tma_persistent, hgemm_tma_persistent_smem_bytes, 256, 128, 3,
        1),
    {.v = {.name = TENSOR_CEILING,
           .number = 14,
           .description =
               "mma.sync with its operands in registers, no memory: the tensor cores' ceiling",
           .kernel = (const void*)mma_ceiling,
           .needs = {.arch = 80, .feature = "mma.sync.m16n8k16", .threads = CEILING_NT}}},
    WGMMA("hgemm_wgmma", 16,
          "wgmma (sm_90a): one warpgroup, 64 x 256 tiles, 4 stages of 64 k by the TMA, 128B",
          WG_ONE_WARPGROUP),
    WGMMA("hgemm_wgmma_ws", 17,
          "a producer warpgroup and two consumers, 128 x 256, full and empty mbarriers",
          WG_SPECIALISED),
    WGMMA("hgemm_wgmma_persistent", 18, "one block an SM walking the tiles", WG_PERSISTENT),
    WGMMA("hgemm_wgmma_tma_c", 19, "C through the TMA", WG_TMA_C),
    WGMMA("hgemm_wgmma_tma_c_64B", 19, "the same in the 64B mode", WG_TMA_C_64B),
    WGMMA("hgemm_wgmma_tma_c_32B", 19, "the same in the 32B mode", WG_TMA_C_32B),
    WGMMA("hgemm_wgmma_tma_c_none", 19, "the same unswizzled (interleave)", WG_TMA_C_NONE),
    WGMMA("hgemm_wgmma_cluster", 21,
          "19 in clusters of 2 blocks down M, B's slices multicast to both by the TMA", WG_CLUSTER),
    {.v = {.name = TENSOR_WGMMA_CEILING,
           .number = 20,
           .description = "wgmma on shared memory, no global memory: the wgmma kernels' ceiling",
           .kernel = hgemm_wgmma_ceiling_kernel(),
           .needs = {.arch = 90,
                     .feature = "wgmma",
                     .dynamic_smem = hgemm_wgmma_ceiling_smem(),
                     .threads = hgemm_wgmma_ceiling_threads(),
                     .arch_specific = 1}},
     .layout = HG_WGMMA + WGMMA_128B},
};
#undef MMA
#undef TMA
#undef WGMMA
enum { N_VARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

course_variants tensor_variants(void) {
    return course_variants_of(VARIANTS, sizeof VARIANTS[0], N_VARIANTS);
}

const tensor_variant* tensor_at(const course_variants* t, int i) {
    return (const tensor_variant*)course_variant_at(t, i);
}

void tensor_configure(const course_variants* running) {
    for (int i = 0; i < running->n; ++i) {
        const tensor_variant* x = tensor_at(running, i);
        /* every kernel of a row, the ceilings' too, may have the row's shared memory; the
         * fallbacks need no more than the TMA's kernels (their tiles less the slack) */
        const void* kernels[3] = {x->v.kernel, x->unaligned_kernel, x->fallback_kernel};
        for (int k = 0; k < 3; ++k)
            if (kernels[k])
                CUDA_CHECK(cudaFuncSetAttribute(kernels[k],
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                (int)x->v.needs.dynamic_smem));
    }
}
