/* Chapter 08: launching the cp.async and TMA SGEMMs on a call (gemm_call) and a division of its
 * work (gemm_work.h): what the fixed variants (sgemm_variants.cu) and sgemm_auto (sgemm_auto.cu)
 * share. Each kernel's dynamic shared memory is granted by gemm_configure or
 * sgemm_auto_configure. */
#ifndef SGEMM_LAUNCH_CUH
#define SGEMM_LAUNCH_CUH

#include "gemm_async_kernels.cuh"
#include "gemm_tma_kernels.cuh"
#include "sgemm_auto.h"
#include "gemm/harness.h"
#include "host/check.h"
#include "host/tma_map.h"

#include <stdint.h>

/* C's float4 stores: aligned rows. */
static inline int sgemm_c_vec(const gemm_call* c) {
    return sgemm_rows_aligned((uintptr_t)c->C, c->ldc);
}

/* WALK: the kernel that walks ranges (w has stream-K blocks), a line of blocks; else a tile a
 * block, a grid of tiles (gemm_tma). */
static inline dim3 sgemm_grid(const gemm_work& w, bool walk) {
    return walk ? dim3(gemm_work_blocks(&w))
                : dim3(w.tiles_n, w.tiles_n > 0 ? w.whole / w.tiles_n : 0);
}

template <int BM, int BN, int BK, int NT, int LANES_M, int TN, int STAGES, int A_LAYOUT,
          typename SCHEDULE, bool WALK = false>
static void run_async(const gemm_call* c, const float* A, int lda, const float* B, int ldb, int vec,
                      const gemm_work& w) {
    constexpr int bytes = async_smem_bytes(A_LAYOUT, BM, BN, BK, STAGES);
    gemm_async<BM, BN, BK, NT, LANES_M, TN, STAGES, A_LAYOUT, SCHEDULE, WALK>
        <<<sgemm_grid(w, WALK), NT, bytes>>>(c->M, c->N, c->K, c->alpha, A, lda, B, ldb, c->beta,
                                             c->C, c->ldc, vec, sgemm_c_vec(c), w);
}

/* A tensor map per operand: A's box BK x BM floats in the 128B swizzle, B's BN x BK as it is,
 * zeros past the edges. A and B must be TMA-mappable (sgemm_rows_aligned) and K > 0. STAGED_C:
 * for C's unaligned rows (gemm_tma). PACK: packed beside the tiles (cooperative: the tiles and
 * the spare blocks) or, walking, alongside them (the packing grid's programmatic dependent). */
template <int BM, int BN, int NT, int LANES_M, int TN, int STAGES, int INTERLEAVE,
          bool WALK = false, bool STAGED_C = false, bool PACK = false>
static void run_tma(const gemm_call* c, const float* A, int lda, const float* B, int ldb,
                    const gemm_work& w, const gemm_pack_beside& pk = gemm_pack_beside()) {
    CUtensorMap a, b;
    course_tma_map_2d_ld(&a, A, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->M, c->K, lda, BM, TMA_BK,
                         CU_TENSOR_MAP_SWIZZLE_128B);
    course_tma_map_2d_ld(&b, B, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c->K, c->N, ldb, TMA_BK, BN,
                         CU_TENSOR_MAP_SWIZZLE_NONE);
    if constexpr (PACK) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = WALK ? sgemm_grid(w, true) : dim3(pk.blocks); /* beside: tiles, spare */
        cfg.blockDim = dim3(NT);
        cfg.dynamicSmemBytes = tma_smem_bytes(BM, BN, STAGES);
        cudaLaunchAttribute attr[1];
        if (WALK) { /* launched once every block of the packing grid before it has started */
            attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr[0].val.programmaticStreamSerializationAllowed = 1;
        } else { /* every block resident, or the packing's counters never fill */
            attr[0].id = cudaLaunchAttributeCooperative;
            attr[0].val.cooperative = 1;
        }
        cfg.attrs = attr, cfg.numAttrs = 1;
        CUDA_CHECK(cudaLaunchKernelEx(
            &cfg, gemm_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE, WALK, STAGED_C, true>, a, b,
            c->M, c->N, c->alpha, c->beta, c->C, c->ldc, sgemm_c_vec(c), w, pk));
    } else {
        gemm_tma<BM, BN, NT, LANES_M, TN, STAGES, INTERLEAVE, WALK, STAGED_C>
            <<<sgemm_grid(w, WALK), NT, tma_smem_bytes(BM, BN, STAGES)>>>(
                a, b, c->M, c->N, c->alpha, c->beta, c->C, c->ldc, sgemm_c_vec(c), w, pk);
    }
}

/* The classic grid: a block a tile, slices of BK. */
static inline gemm_work sgemm_tiles(const gemm_call* c, int bm, int bn, int bk) {
    return gemm_work_tiles((c->M + bm - 1) / bm, (c->N + bn - 1) / bn, (c->K + bk - 1) / bk);
}

#endif
