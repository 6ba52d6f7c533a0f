/* Chapter 08, part 3's last steps (sm_90): the tensor-core GEMM fed by the TMA, as the SGEMM's
 * gemm_tma is. Each slice of 64 k is one box of A (64 halves x BM rows) and BN / 64 boxes of B
 * (64 halves x 64 rows), all in the TMA's 128B swizzle: panels of 128-byte rows, Swizzle<3,3,3>
 * on half offsets (hg_tile's HG_TMA), which chapter 04's rule makes conflict-free for ldmatrix,
 * .x4 on A and .x4.trans on B alike. The warps' work is hgemm_mma's: 64 x 64 each, fragments one
 * k16 step ahead (hgemm_warp.cuh).
 *
 * What the TMA takes off the warps: hgemm_mma's threads each issue 12 cp.async a slice, with
 * their addresses and edge tests (about 100 instructions a slice in its SASS); here thread 0
 * issues 3 copies, and the copy engine zero-fills what lies past the matrix. The loop keeps one
 * barrier a slice: after it, every warp has read slice t's stage (its last fragments were loaded
 * a step earlier), and thread 0 refills that stage with slice t + STAGES; STAGES slices are in
 * flight, one more than hgemm_mma's cp.async pipeline keeps.
 *
 * Two kernels on the same pieces (the stages and their barriers, thread 0's copies of a slice,
 * the warps' slices of a tile):
 *   12 hgemm_tma             one block a tile;
 *   13 hgemm_tma_persistent  one block an SM walks the tiles tile, tile + gridDim.x, ... and
 *      thread 0's copies run STAGES slices ahead across the tiles, so the next tile's first slices
 *      load while this tile ends. C leaves through the TMA too (hg_store_tma): the warps write
 *      their accumulators into shared memory, one lane hands them to the copy engine, and the
 *      warps go on to the next tile while it writes. Storing from registers costs the one-tile
 *      kernel a 256 x 128 tile's 512 warp-wide stores of 8 scattered 32-byte pieces, in which no
 *      warp computes.
 *
 * Every stage and every staging box is 1 KiB aligned: the 128B swizzle is a pattern of the
 * address bits. The tensor maps need 16-byte aligned rows (K and N multiples of 8) and matrices
 * (C too, for the TMA's stores), and K > 0: the launchers (tensor_variants.cu) fall back to
 * hgemm_mma on other shapes and without the TMA. */
#ifndef HGEMM_TMA_KERNELS_CUH
#define HGEMM_TMA_KERNELS_CUH

#include "hgemm_c_staging.cuh"
#include "hgemm_kernels.cuh"
#include "hgemm_layout.h"
#include "hgemm_tiles.cuh"
#include "hgemm_warp.cuh"
#include "ptx/tma.cuh"

/* The stages and the slack to align their base. */
template <int BM, int BN, int STAGES>
constexpr __host__ __device__ int hgemm_tma_smem_bytes() {
    return hgemm_smem_bytes<BM, BN, HG_TMA_BK, STAGES, HG_TMA>() + TMA_ALIGN;
}

/* The same and C's staging buffers, two a warp. */
template <int BM, int BN, int STAGES>
constexpr __host__ __device__ int hgemm_tma_persistent_smem_bytes() {
    return hgemm_tma_smem_bytes<BM, BN, STAGES>() +
           BM / 64 * (BN / 64) * HG_C_BUFFERS * HG_C_CHUNK * 4;
}
static_assert(HG_C_ROWS * HG_C_BOX * 4 % TMA_ALIGN == 0, "every staging box 1 KiB aligned");

/* The block's stages from a 1 KiB aligned base, in shared addresses (base: stage 0) and as a
 * pointer (aligned), and their barriers (full[s]: stage s's bytes have landed). */
struct hgemm_tma_stages {
    unsigned base;
    unsigned char* aligned;
    unsigned long long* full;
};

static __device__ __forceinline__ hgemm_tma_stages hgemm_tma_stages_of(uint4* smem,
                                                                       unsigned long long* full) {
    hgemm_tma_stages st;
    const unsigned raw = smem_address(smem);
    st.base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
    st.aligned = reinterpret_cast<unsigned char*>(smem) + (st.base - raw);
    st.full = full;
    return st;
}

/* The barriers initialised by thread 0 and made visible to the copy engine (the async proxy)
 * before any thread goes on. */
template <int STAGES>
static __device__ __forceinline__ void hgemm_tma_init_barriers(const hgemm_tma_stages& st) {
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&st.full[s]), 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
}

/* Thread 0's copies of one slice, k0 .. k0 + 63 of the block tile at (bm, bn), into stage s: the
 * byte count the barrier expects, then A's box at (k0, bm) and B's panels at (bn + 64 panel, k0)
 * (coordinates innermost first). The fence orders the block's earlier reads of the stage (the
 * generic proxy, ordered before this thread by the barrier) before the copy engine's writes. */
template <int BM, int BN>
static __device__ __forceinline__ void
hgemm_tma_load_slice(const hgemm_tma_stages& st, int s, const CUtensorMap* map_a,
                     const CUtensorMap* map_b, int k0, int bm, int bn) {
    typedef hg_stage<BM, BN, HG_TMA_BK, HG_TMA> Stage;
    constexpr unsigned STAGE_BYTES = Stage::HALVES * 2;
    const unsigned bar = smem_address(&st.full[s]), a = st.base + s * STAGE_BYTES,
                   b = a + Stage::A::HALVES * 2;
    fence_proxy_async_shared();
    mbarrier_expect_bytes(bar, STAGE_BYTES);
    tma_load_2d(a, map_a, k0, bm, bar);
#pragma unroll
    for (int panel = 0; panel < BN / 64; ++panel)
        tma_load_2d(b + Stage::B::at(0, 64 * panel) * 2, map_b, bn + 64 * panel, k0, bar);
}

/* The warps' side of the pipeline: their fragments one k16 step ahead (two buffers), the lane's
 * offsets, and the stage and barrier parity of the slice they compute next. The block's slices
 * are one sequence (over its tiles, persistent): the g-th is in stage g % STAGES, whose barrier
 * completes its phase number g / STAGES, of parity `phase`. */
template <int BM, int BN, int STAGES>
struct hgemm_tma_warps {
    typedef hg_stage<BM, BN, HG_TMA_BK, HG_TMA> Stage;
    typedef typename Stage::A TA;
    typedef typename Stage::B TB;
    static constexpr int KS = HG_TMA_BK / 16;

    const __half* smem;
    const unsigned long long* full;
    int a_off[KS], b_off[4];
    unsigned af[2][4][4], bf[2][4][4];
    int stage, phase;

    __device__ __forceinline__ hgemm_tma_warps(const hgemm_tma_stages& st, int wm, int wn, int lane)
        : smem(reinterpret_cast<const __half*>(st.aligned)), full(st.full), stage(0), phase(0) {
        hg_lane_offsets<TA, TB, KS>(a_off, b_off, wm, wn, lane);
    }

    __device__ __forceinline__ void fragments(int buf, int s, int ks) {
        const __half* a = smem + s * Stage::HALVES;
        hg_fragments<16 * TA::STRIDE>(af[buf], bf[buf], a + a_off[ks],
                                      a + TA::HALVES + 16 * ks * TB::STRIDE, b_off);
    }

    /* The first slice's first fragments, once its bytes have landed. */
    __device__ __forceinline__ void begin() {
        mbarrier_wait(smem_address(&full[0]), 0);
        fragments(0, 0, 0);
    }

    /* A tile's slices into acc; more: a slice follows its last (the block's next tile). Before
     * the last step of a slice: the barrier (every warp has read the slice's stage), refill(s),
     * thread 0's refill of that stage, and the wait for the next slice, whose first fragments
     * that step loads. */
    template <typename REFILL>
    __device__ __forceinline__ void tile(float (&acc)[4][8][4], int slices, bool more_after,
                                         REFILL refill) {
        for (int t = 0; t < slices; ++t) {
            const int s = stage, s_next = s + 1 == STAGES ? 0 : s + 1;
            const int phase_next = s + 1 == STAGES ? phase ^ 1 : phase;
            const bool more = t + 1 < slices || more_after;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                if (ks == KS - 1) {
                    __syncthreads();
                    refill(s, t);
                    if (more) mbarrier_wait(smem_address(&full[s_next]), phase_next);
                }
                if (ks + 1 < KS)
                    fragments((ks + 1) % 2, s, ks + 1);
                else if (more)
                    fragments(0, s_next, 0);
                hg_mma_step(acc, af[ks % 2], bf[ks % 2]);
            }
            stage = s_next;
            phase = phase_next;
        }
    }
};

/* alpha times the warp's 64 x 64 accumulators out to C at (row0, col0) through the TMA, 16 rows
 * at a time into the warp's buffers (stage: 2 chunks of floats); the copy engine leaves out what
 * lies past C. Before a buffer is written again, lane 0 waits until the copy issued from it two
 * chunks ago has read it; the fence hands the warp's writes to the copy engine (the async proxy).
 */
static __device__ __forceinline__ void hg_store_tma(const CUtensorMap* map_c, float* stage,
                                                    int row0, int col0, const float (&acc)[4][8][4],
                                                    float alpha, int lane) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float* const buf = stage + i % HG_C_BUFFERS * HG_C_CHUNK;
        if (lane == 0) tma_store_wait_read<HG_C_BUFFERS - 1>();
        __syncwarp();
        hg_store_chunk_tma(map_c, buf, row0 + HG_C_ROWS * i, col0, alpha, lane,
                           [&](int j, int e) { return acc[i][j][e]; });
    }
}

/* Kernel 12: one block a tile. K > 0 and a grid of one block a tile (tensor_variants.cu). */
template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(BM / 64 * (BN / 64) * 32)
    hgemm_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
              float* __restrict__ C, int M, int N, int K, float alpha, float beta) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = HG_TMA_BK;
    static_assert(hg_stage<BM, BN, BK, HG_TMA>::HALVES * 2 % TMA_ALIGN == 0,
                  "every stage 1 KiB aligned");
    static_assert(STAGES >= 2, "a stage to compute on and one to fill");
    static_assert(hgemm_tma_smem_bytes<BM, BN, STAGES>() <= 227 * 1024,
                  "within an sm_90 block's 227 KiB of shared memory");
    extern __shared__ uint4 hg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const hgemm_tma_stages st = hgemm_tma_stages_of(hg_smem, full);
    const hgemm_thread_tiles p = hgemm_thread_tiles_of<BM, BN, BK>(M, N, K, blockIdx.x);
    const int bm = p.block_m, bn = p.block_n;
    hgemm_tma_init_barriers<STAGES>(st);
    hgemm_tma_warps<BM, BN, STAGES> warps(st, p.warp_m, p.warp_n, p.lane);

    /* Thread 0: the first STAGES slices, then at slice t's last step slice t + STAGES into the
     * stage slice t was read from. */
    if (p.tid == 0)
        for (int s = 0; s < STAGES && s < p.slices; ++s)
            hgemm_tma_load_slice<BM, BN>(st, s, &map_a, &map_b, s * BK, bm, bn);
    warps.begin();
    float acc[4][8][4] = {};
    warps.tile(acc, p.slices, false, [&](int s, int t) {
        if (p.tid == 0 && t + STAGES < p.slices)
            hgemm_tma_load_slice<BM, BN>(st, s, &map_a, &map_b, (t + STAGES) * BK, bm, bn);
    });
    hg_store(C, M, N, bm + p.warp_m, bn + p.warp_n, acc, alpha, beta, p.lane);
#else
    (void)map_a, (void)map_b, (void)C, (void)M, (void)N, (void)K, (void)alpha, (void)beta;
    __trap();
#endif
}

/* Kernel 13: one block an SM walking the tiles; with beta = 0, C through the TMA (map_c), else
 * from registers. K > 0 and a grid of at most one block a tile (tensor_variants.cu). */
template <int BM, int BN, int STAGES>
__global__ void __launch_bounds__(BM / 64 * (BN / 64) * 32)
    hgemm_tma_persistent(const __grid_constant__ CUtensorMap map_a,
                         const __grid_constant__ CUtensorMap map_b,
                         const __grid_constant__ CUtensorMap map_c, float* __restrict__ C, int M,
                         int N, int K, float alpha, float beta) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = HG_TMA_BK;
    constexpr unsigned STAGE_BYTES = hg_stage<BM, BN, BK, HG_TMA>::HALVES * 2;
    static_assert(STAGE_BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
    static_assert(STAGES >= 2, "a stage to compute on and one to fill");
    static_assert(hgemm_tma_persistent_smem_bytes<BM, BN, STAGES>() <= 227 * 1024,
                  "within an sm_90 block's 227 KiB of shared memory");
    extern __shared__ uint4 hg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const hgemm_tma_stages st = hgemm_tma_stages_of(hg_smem, full);
    const int tiles = (M + BM - 1) / BM * ((N + BN - 1) / BN);
    const hgemm_thread_tiles p = hgemm_thread_tiles_of<BM, BN, BK>(M, N, K, blockIdx.x);
    float* const c_stage = reinterpret_cast<float*>(st.aligned + STAGES * STAGE_BYTES) +
                           p.tid / 32 * HG_C_BUFFERS * HG_C_CHUNK;
    hgemm_tma_init_barriers<STAGES>(st);

    /* Thread 0's copies: the next slice to load is slice next_t of tile next (at next_bm,
     * next_bn), STAGES slices ahead of the warps and on into the block's next tile. */
    int next = blockIdx.x, next_t = 0, next_bm = p.block_m, next_bn = p.block_n;
    auto issue = [&](int s) {
        hgemm_tma_load_slice<BM, BN>(st, s, &map_a, &map_b, next_t * BK, next_bm, next_bn);
        if (++next_t == p.slices) {
            next_t = 0;
            next += gridDim.x;
            /* past the last tile hg_tile_of would divide by zero */
            if (next < tiles) hg_tile_origin<BM, BN>(next, M, N, &next_bm, &next_bn);
        }
    };
    hgemm_tma_warps<BM, BN, STAGES> warps(st, p.warp_m, p.warp_n, p.lane);
    if (p.tid == 0)
        for (int s = 0; s < STAGES && next < tiles; ++s) issue(s);
    warps.begin();
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        float acc[4][8][4] = {};
        warps.tile(acc, p.slices, tile + (int)gridDim.x < tiles, [&](int s, int) {
            if (p.tid == 0 && next < tiles) issue(s);
        });
        int bm, bn;
        hg_tile_origin<BM, BN>(tile, M, N, &bm, &bn);
        if (beta == 0.0f)
            hg_store_tma(&map_c, c_stage, bm + p.warp_m, bn + p.warp_n, acc, alpha, p.lane);
        else
            hg_store(C, M, N, bm + p.warp_m, bn + p.warp_n, acc, alpha, beta, p.lane);
    }
    /* the stores' reads of shared memory and their writes, done before the block leaves */
    if (p.lane == 0) tma_store_wait_all();
#else
    (void)map_a, (void)map_b, (void)map_c, (void)C, (void)M, (void)N, (void)K, (void)alpha,
        (void)beta;
    __trap();
#endif
}

#endif
