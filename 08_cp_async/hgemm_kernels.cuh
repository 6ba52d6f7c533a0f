/* Chapter 08, the tensor-core part: an FP16 GEMM with FP32 accumulation on mma.sync.m16n8k16,
 * C = alpha * A * B + beta * C, A (M x K) and B (K x N) row-major halves, C row-major floats, as
 * chapter 06 keeps its matrices.
 *
 * Each block computes a BM x BN tile of C with WARPS_M x WARPS_N warps of 64 x 64. Its slices of
 * A (BM x BK, K-major) and of B (BK x BN, [k][n]) come through a STAGES-deep cp.async pipeline
 * into shared tiles in one of three layouts, and every warp reads them with ldmatrix: .x4 for A
 * (16 rows m at two 16-byte columns k), .x4.trans for B (16 rows k at two 16-byte columns n:
 * the B registers of two n8 tiles): hgemm_warp.cuh, on mma_fragments.h's maps, which
 * test_mma_fragments proves against the hardware.
 *
 * An ldmatrix matrix is 8 consecutive tile rows at one 16-byte column, served alone (the model's
 * rule 4, calibrated): conflict-free when those 8 rows sit in 8 different 16-byte slots of the
 * 128-byte bank line. Plain rows of 64 bytes (BK = 32) put 8 rows in 2 slots (4-way on every
 * matrix of A); rows of 128 bytes or more put them all in one (8-way on B). HG_PADDED adds 8
 * halves to each row (16 bytes: rows walk the slots); HG_SWIZZLED keeps the tile dense under
 * chapter 04's choice, Swizzle<B,3,S> on half offsets with B = min(3, log2 units), S = max(3,
 * log2 units) for rows of `units` 16-byte units (exercise_ldmatrix_layout's answer for a
 * kernel-written tile): A at BK = 32 <2,3,3>, B at BN = 256 <3,3,5>. The cp.async stores fill
 * whole 128-byte lines per quarter-warp, plain and swizzled; padded A's 80-byte rows make them
 * 2-way (the model; bankcalc --op store --width 16 with rows 80 bytes apart: 2 wavefronts, ideal
 * 1; not yet counted by ncu).
 *
 * Edges: with K and N multiples of 8 (every row 16-byte aligned) a 16-byte chunk is wholly inside
 * or outside the matrix, and cp.async's zero-fill writes zeros for the outside ones. Other shapes
 * (ALIGNED = 0) load the same chunks half by half through registers. */
#ifndef HGEMM_KERNELS_CUH
#define HGEMM_KERNELS_CUH

#include "hgemm_tiles.cuh"
#include "hgemm_warp.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/matrix.cuh"

#include <cuda_fp16.h>

/* One 16-byte chunk into the tile at dst, of which the first n halves (0..8) at src lie inside
 * the matrix: cp.async with zero-fill when rows are 16-byte aligned (n is then 0 or 8), half by
 * half through registers otherwise. */
template <int ALIGNED>
static __device__ __forceinline__ void hg_load_chunk(__half* dst, const __half* src, int n,
                                                     const __half* safe) {
    if (ALIGNED) {
        cp_async_16(dst, n > 0 ? src : safe, n > 0 ? 16 : 0);
    } else {
        __align__(16) __half v[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) v[j] = j < n ? src[j] : __half(0.0f);
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(v);
    }
}

static __device__ __forceinline__ int hg_clamp8(int n) {
    return n < 0 ? 0 : n > 8 ? 8 : n;
}

/* Kernels 9 to 11 (hgemm_plain, hgemm_padded, hgemm_swizzled and the sweep). */
template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int LAYOUT, int ALIGNED>
__global__ void __launch_bounds__(WARPS_M* WARPS_N * 32)
    hgemm_mma(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C,
              int M, int N, int K, float alpha, float beta) {
    constexpr int NT = WARPS_M * WARPS_N * 32, MT = 4, NT8 = 8, KS = BK / 16;
    typedef hg_stage<BM, BN, BK, LAYOUT> Stage;
    typedef typename Stage::A TA;
    typedef typename Stage::B TB;
    static_assert(BM == 64 * WARPS_M && BN == 64 * WARPS_N, "64 x 64 per warp");
    static_assert(KS % 2 == 0 && (BM * BK / 8) % NT == 0 && (BK * BN / 8) % NT == 0,
                  "an even number of k16 steps a slice; whole chunks per thread");
    static_assert(STAGES >= 2 && STAGES <= 4, "2 to 4 stages (cp_async_wait)");
    extern __shared__ uint4 hg_smem[];
    __half* const smem = reinterpret_cast<__half*>(hg_smem);

    const hgemm_thread_tiles p = hgemm_thread_tiles_of<BM, BN, BK>(M, N, K, blockIdx.x);
    const int tid = p.tid, lane = p.lane, wm = p.warp_m, wn = p.warp_n, bm = p.block_m,
              bn = p.block_n;
    const int slices = p.slices;

    /* Slice t into stage t % STAGES. Thread tid's chunks: of A, rows a_r + A_STEP i at unit
     * a_u; of B, rows b_r + B_STEP i at unit b_u. The steps are multiples of 8 rows, which no
     * layout's row step changes the swizzle of: one shared offset and one pointer per operand,
     * the rest constants. */
    constexpr int A_UNITS = BK / 8, B_UNITS = BN / 8, A_STEP = NT / A_UNITS, B_STEP = NT / B_UNITS;
    static_assert(A_STEP % 8 == 0 && B_STEP % 8 == 0, "chunk rows 8 apart");
    const int a_r = tid / A_UNITS, a_u = tid % A_UNITS, b_r = tid / B_UNITS, b_u = tid % B_UNITS;
    const int a_dst = TA::at(a_r, 8 * a_u), b_dst = TB::at(b_r, 8 * b_u);
    const __half* const a_src = A + (size_t)(bm + a_r) * K + 8 * a_u;
    const __half* const b_src = B + (size_t)b_r * N + bn + 8 * b_u;
    auto load = [&](int t) {
        __half* a = smem + t % STAGES * Stage::HALVES + a_dst;
        __half* b = smem + t % STAGES * Stage::HALVES + TA::HALVES + b_dst;
        const int a_n = hg_clamp8(K - t * BK - 8 * a_u), b_n = hg_clamp8(N - bn - 8 * b_u);
#pragma unroll
        for (int i = 0; i < BM / A_STEP; ++i)
            hg_load_chunk<ALIGNED>(a + i * A_STEP * TA::STRIDE,
                                   a_src + (size_t)i * A_STEP * K + t * BK,
                                   bm + a_r + i * A_STEP < M ? a_n : 0, A);
#pragma unroll
        for (int i = 0; i < BK / B_STEP; ++i)
            hg_load_chunk<ALIGNED>(b + i * B_STEP * TB::STRIDE,
                                   b_src + (size_t)(t * BK + i * B_STEP) * N,
                                   t * BK + b_r + i * B_STEP < K ? b_n : 0, B);
    };
    /* The warp's fragments of k16 step ks of slice t, from the lane's offsets. */
    int a_off[KS], b_off[NT8 / 2];
    hg_lane_offsets<TA, TB, KS>(a_off, b_off, wm, wn, lane);
    unsigned af[2][MT][4], bf[2][NT8 / 2][4];
    auto fragments = [&](int buf, int t, int ks) {
        const __half* a = smem + t % STAGES * Stage::HALVES;
        hg_fragments<16 * TA::STRIDE>(af[buf], bf[buf], a + a_off[ks],
                                      a + TA::HALVES + 16 * ks * TB::STRIDE, b_off);
    };

    float acc[MT][NT8][4] = {};
#pragma unroll
    for (int t = 0; t < STAGES - 1; ++t) {
        if (t < slices) load(t);
        cp_async_commit();
    }
    cp_async_wait(STAGES - 2); /* slice 0 has landed, for this thread */
    __syncthreads();           /* and for everyone */
    if (slices > 0) fragments(0, 0, 0);
    /* Step ks of slice t computes on fragments loaded one step earlier, while the next step's
     * load: the warp never waits for its own ldmatrix. Before the last step of slice t the block
     * waits for slice t + 1 and passes a barrier; every warp has then loaded all of slice t's
     * fragments, so slice t's stage is free, and the first step of slice t + 1 refills it (with
     * slice t + STAGES). */
    for (int t = 0; t < slices; ++t) {
#pragma unroll
        for (int ks = 0; ks < KS; ++ks) {
            if (ks == KS - 1) {
                cp_async_wait(STAGES - 2);
                __syncthreads();
            }
            if (ks == 0) {
                if (t + STAGES - 1 < slices) load(t + STAGES - 1);
                cp_async_commit();
            }
            if (ks + 1 < KS)
                fragments((ks + 1) % 2, t, ks + 1);
            else if (t + 1 < slices)
                fragments(0, t + 1, 0);
            hg_mma_step(acc, af[ks % 2], bf[ks % 2]);
        }
    }
    cp_async_wait(0);
    hg_store(C, M, N, bm + wm, bn + wn, acc, alpha, beta, lane);
}

/* Kernel 14, the ceiling: mma.sync with its operands in registers, 8 independent accumulators per
 * warp, no memory in the loop. Each thread adds its accumulators into out so the work is kept. */
__global__ void __launch_bounds__(256) mma_ceiling(int iters, float* out) {
    unsigned a[4], b0 = 0x3c003c00u ^ threadIdx.x, b1 = b0;
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = 0x3c003c00u + i + threadIdx.x; /* halves near 1.0 */
    float d[8][4] = {};
    for (int it = 0; it < iters; ++it)
#pragma unroll
        for (int k = 0; k < 8; ++k) mma_m16n8k16(d[k], a, b0, b1);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) s += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#endif
