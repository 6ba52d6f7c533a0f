/* Chapter 08, part 3's last step (sm_90): the tensor-core GEMM fed by the TMA, as the SGEMM's
 * gemm_tma is. Each slice of 64 k is one box of A (64 halves x BM rows) and BN / 64 boxes of B
 * (64 halves x 64 rows), all in the TMA's 128B swizzle: panels of 128-byte rows, Swizzle<3,3,3>
 * on half offsets (hg_tile's HG_TMA), which chapter 04's rule makes conflict-free for ldmatrix,
 * .x4 on A and .x4.trans on B alike. The warps' work is hgemm_mma's: 64 x 64 each, fragments one
 * k16 step ahead.
 *
 * What the TMA takes off the warps: hgemm_mma's threads each issue 12 cp.async a slice, with
 * their addresses and edge tests (about 100 instructions a slice in its SASS); here thread 0
 * issues 3 copies, and the copy engine zero-fills what lies past the matrix. The loop keeps one
 * barrier a slice: after it, every warp has read slice t's stage (its last fragments were loaded
 * a step earlier), and thread 0 refills that stage with slice t + STAGES; STAGES slices are in
 * flight, one more than hgemm_mma's cp.async pipeline keeps.
 *
 * PERSISTENT (hgemm_tma_persistent): one block an SM walks the tiles tile, tile + gridDim.x, ...
 * and thread 0's copies run STAGES slices ahead across the tiles, so the next tile's first slices
 * load while this tile ends. C leaves through the TMA too (hg_store_tma): the warps write their
 * accumulators into shared memory, one lane hands them to the copy engine, and the warps go on
 * to the next tile while it writes. Storing from registers costs the one-tile kernel a 256 x 128
 * tile's 512 warp-wide stores of 8 scattered 32-byte pieces, in which no warp computes.
 *
 * Every stage and every staging box is 1 KiB aligned: the 128B swizzle is a pattern of the
 * address bits. The tensor maps need 16-byte aligned rows (K and N multiples of 8) and matrices
 * (C too, for the TMA's stores), and K > 0: hgemm.cu falls back to hgemm_mma on other shapes and
 * without the TMA. */
#ifndef HGEMM_TMA_KERNELS_CUH
#define HGEMM_TMA_KERNELS_CUH

#include "hgemm_kernels.cuh"
#include "ptx/tma.cuh"

/* C's staging (PERSISTENT): a warp's 64 x 64 floats leave in chunks of 16 rows, each two TMA
 * boxes of 16 x 32 floats (128-byte rows, the 128B swizzle); two buffers a warp, so a chunk is
 * written while the copy engine still reads the one before. */
enum {
    HG_TMA_BK = 64,
    HG_C_ROWS = 16,
    HG_C_BOX = 32,
    HG_C_CHUNK = HG_C_ROWS * 64,
    HG_C_BUFFERS = 2
};

/* Where float (r, c) of a chunk sits in its buffer, in floats: box c / 32, in the 128B swizzle,
 * which on 4-byte elements is Swizzle<3,2,3> (16-byte units XORed with the row's low 3 bits);
 * swizzled 0: the box's rows plain, what the model compares it with. */
static __host__ __device__ inline unsigned hg_c_slot(unsigned r, unsigned c, int swizzled) {
    const unsigned in_box = r * HG_C_BOX + c % HG_C_BOX;
    return c / HG_C_BOX * (HG_C_ROWS * HG_C_BOX) +
           (swizzled ? layout_swizzle(in_box, 3, 2, 3) : in_box);
}

/* The column of the float2 that lane writes in the warp's j-th store of a chunk row (j = 0..7):
 * lane (g, q) = (lane / 4, lane % 4) holds columns 8 j + 2 q of row g (mma_d_element), and odd
 * rows take the 8-column blocks in the order j ^ 2. Why, for one store: 64-bit stores go 16 lanes
 * at a time, and lanes 0..15 are rows g = 0..3, each writing 16-byte units 2 j and 2 j + 1 of its
 * row (j mod 4, in box j / 4: boxes lie 2 KiB apart, on the same banks). Rows of 128 bytes start at
 * bank 0: unswizzled, the 4 rows hit the same 2 units (4-way, 8 wavefronts for 256 bytes). The
 * swizzle XORs the unit with g: (2 j + b) ^ g for g = 0..3 is still only 4 units, each twice (4
 * wavefronts). With odd rows at j ^ 2, the 8 (g, b) land on all 8 units: 2 wavefronts, the least
 * 256 bytes take. The model counts all three (hgemm_print_model), ncu the kernel's (the ncu test's
 * st column). */
static __host__ __device__ inline unsigned hg_c_column(unsigned j, unsigned lane) {
    return 8 * (j ^ (lane / 4 % 2 * 2)) + 2 * (lane % 4);
}

template <int BM, int BN, int STAGES, int PERSISTENT>
constexpr __host__ __device__ int hgemm_tma_smem_bytes() {
    /* the stages, C's staging buffers (PERSISTENT), the slack to align the base */
    return hgemm_smem_bytes<BM, BN, HG_TMA_BK, STAGES, HG_TMA>() +
           (PERSISTENT ? BM / 64 * (BN / 64) * HG_C_BUFFERS * HG_C_CHUNK * 4 : 0) + TMA_ALIGN;
}
static_assert(HG_C_ROWS * HG_C_BOX * 4 % TMA_ALIGN == 0, "every staging box 1 KiB aligned");

/* alpha times the warp's 64 x 64 accumulators out to C at (row0, col0) through the TMA, 16 rows
 * at a time into the warp's buffers (stage: 2 chunks of floats); the copy engine leaves out what
 * lies past C. Before a buffer is written again, lane 0 waits until the copy issued from it two
 * chunks ago has read it; the fence hands the warp's writes to the copy engine (the async proxy).
 */
static __device__ __forceinline__ void hg_store_tma(const CUtensorMap* map_c, float* stage,
                                                    int row0, int col0, const float (&acc)[4][8][4],
                                                    float alpha, int lane) {
    const int g = lane / 4;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float* const buf = stage + i % HG_C_BUFFERS * HG_C_CHUNK;
        if (lane == 0) tma_store_wait_read<HG_C_BUFFERS - 1>();
        __syncwarp();
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                /* hg_c_column's order: a select between two registers, odd rows j ^ 2 */
                const int e = 2 * h, odd = g % 2;
                const float x = odd ? acc[i][j ^ 2][e] : acc[i][j][e],
                            y = odd ? acc[i][j ^ 2][e + 1] : acc[i][j][e + 1];
                *reinterpret_cast<float2*>(buf + hg_c_slot(g + 8 * h, hg_c_column(j, lane), 1)) =
                    make_float2(alpha * x, alpha * y);
            }
        fence_proxy_async_shared();
        __syncwarp();
        if (lane == 0) {
#pragma unroll
            for (int box = 0; box < 64 / HG_C_BOX; ++box)
                tma_store_2d(map_c, col0 + HG_C_BOX * box, row0 + HG_C_ROWS * i,
                             smem_address(buf + box * HG_C_ROWS * HG_C_BOX));
            tma_store_commit();
        }
    }
}

/* K > 0 and a grid of at most one block a tile (hgemm.cu's launch sees to both). */
template <int BM, int BN, int STAGES, int PERSISTENT>
__global__ void __launch_bounds__(BM / 64 * (BN / 64) * 32)
    hgemm_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
              const __grid_constant__ CUtensorMap map_c, float* __restrict__ C, int M, int N, int K,
              float alpha, float beta) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = HG_TMA_BK, MT = 4, NT8 = 8, KS = BK / 16;
    typedef hg_stage<BM, BN, BK, HG_TMA> Stage;
    typedef typename Stage::A TA;
    typedef typename Stage::B TB;
    constexpr unsigned STAGE_BYTES = Stage::HALVES * 2;
    static_assert(STAGE_BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
    static_assert(STAGES >= 2, "a stage to compute on and one to fill");
    static_assert(hgemm_tma_smem_bytes<BM, BN, STAGES, PERSISTENT>() <= 227 * 1024,
                  "within an sm_90 block's 227 KiB of shared memory");
    extern __shared__ uint4 hg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const unsigned raw = smem_address(hg_smem),
                   base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
    unsigned char* const aligned = reinterpret_cast<unsigned char*>(hg_smem) + (base - raw);
    const __half* const smem = reinterpret_cast<const __half*>(aligned);

    const int tiles = (M + BM - 1) / BM * ((N + BN - 1) / BN);
    const hg_place p = hg_place_of<BM, BN, BK>(M, N, K, blockIdx.x);
    const int slices = p.slices;
    const int tid = p.tid, lane = p.lane, wm = p.wm, wn = p.wn;
    float* const c_stage = reinterpret_cast<float*>(aligned + STAGES * STAGE_BYTES) +
                           tid / 32 * HG_C_BUFFERS * HG_C_CHUNK;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&full[s]), 1);
        /* make the initialised barriers visible to the copy engine (the async proxy) */
        fence_proxy_async_shared();
    }
    __syncthreads();

    /* Thread 0's copies: the next slice to load is slice next_t of tile next (at next_bm,
     * next_bn), STAGES slices ahead of the warps and, PERSISTENT, on into the block's next tile.
     * Into stage s: the byte count, then A's box at (k, bm) and B's panels at (bn + 64 panel, k).
     * The fence orders the block's earlier reads of the stage (the generic proxy, ordered before
     * this thread by the barrier) before the copy engine's writes. */
    int next = blockIdx.x, next_t = 0, next_bm = p.bm, next_bn = p.bn;
    auto issue = [&](int s) {
        const unsigned bar = smem_address(&full[s]), a = base + s * STAGE_BYTES,
                       b = a + TA::HALVES * 2;
        fence_proxy_async_shared();
        mbarrier_expect_bytes(bar, STAGE_BYTES);
        tma_load_2d(a, &map_a, next_t * BK, next_bm, bar);
#pragma unroll
        for (int panel = 0; panel < BN / 64; ++panel)
            tma_load_2d(b + TB::at(0, 64 * panel) * 2, &map_b, next_bn + 64 * panel, next_t * BK,
                        bar);
        if (++next_t == slices) {
            next_t = 0;
            next += gridDim.x;
            /* past the last tile hg_tile_of would divide by zero */
            if (next < tiles) hg_tile_origin<BM, BN>(next, M, N, &next_bm, &next_bn);
        }
    };

    int a_off[KS], b_off[NT8 / 2];
    hg_lane_offsets<TA, TB, KS>(a_off, b_off, wm, wn, lane);
    unsigned af[2][MT][4], bf[2][NT8 / 2][4];
    auto fragments = [&](int buf, int s, int ks) {
        const __half* a = smem + s * Stage::HALVES;
        hg_fragments<16 * TA::STRIDE>(af[buf], bf[buf], a + a_off[ks],
                                      a + TA::HALVES + 16 * ks * TB::STRIDE, b_off);
    };

    if (tid == 0)
        for (int s = 0; s < STAGES && next < tiles; ++s) issue(s);
    mbarrier_wait(smem_address(&full[0]), 0);
    fragments(0, 0, 0);
    /* The block's slices are one sequence over its tiles: the g-th is in stage g % STAGES, whose
     * barrier completes its phase number g / STAGES: parity `phase`. Before the last step of a
     * slice: the barrier (the slice's stage is read), its refill, and the wait for the next
     * slice, whose first fragments that step loads. */
    int s = 0, phase = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const bool last_tile = tile + (int)gridDim.x >= tiles;
        float acc[MT][NT8][4] = {};
        for (int t = 0; t < slices; ++t) {
            const int s_next = s + 1 == STAGES ? 0 : s + 1;
            const int phase_next = s + 1 == STAGES ? phase ^ 1 : phase;
            const bool more = t + 1 < slices || !last_tile;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                if (ks == KS - 1) {
                    __syncthreads();
                    if (tid == 0 && next < tiles) issue(s);
                    if (more) mbarrier_wait(smem_address(&full[s_next]), phase_next);
                }
                if (ks + 1 < KS)
                    fragments((ks + 1) % 2, s, ks + 1);
                else if (more)
                    fragments(0, s_next, 0);
                hg_mma_step(acc, af[ks % 2], bf[ks % 2]);
            }
            s = s_next;
            phase = phase_next;
        }
        int bm, bn;
        hg_tile_origin<BM, BN>(tile, M, N, &bm, &bn);
        if (PERSISTENT && beta == 0.0f)
            hg_store_tma(&map_c, c_stage, bm + wm, bn + wn, acc, alpha, lane);
        else
            hg_store(C, M, N, bm + wm, bn + wn, acc, alpha, beta, lane);
    }
    /* the stores' reads of shared memory and their writes, done before the block leaves */
    if (PERSISTENT && lane == 0) tma_store_wait_all();
#else
    (void)map_a, (void)map_b, (void)map_c, (void)C, (void)M, (void)N, (void)K, (void)alpha,
        (void)beta;
    __trap();
#endif
}

#endif
