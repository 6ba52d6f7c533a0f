/* Chapter 08, the last step (sm_90): the same SGEMM fed by the Tensor Memory Accelerator. One
 * thread issues each slice as two cp.async.bulk.tensor copies, A's box of BM rows x BK = 32
 * floats in the TMA's 128B swizzle mode, B's box of BK rows x BN floats as it is; the copy engine
 * counts the bytes into the stage's mbarrier, and the block waits on it. A is read back through
 * Swizzle<3,4,3> on bytes, async_a_slot(ASYNC_A_SWIZZLED, ...): what chapter 04 proved the 128B
 * mode to be, and what the cp.async kernel wrote by hand. Edges cost nothing: the TMA fills what
 * lies past the matrix with zeros. Its tensor maps need 16-byte aligned rows and bases: lda and
 * ldb multiples of 4, A and B 16-byte aligned (the fixed variants fall back to the cp.async
 * kernel otherwise; sgemm_auto packs such an operand into an aligned copy first).
 * At BK = 32 a row of A is one 128-byte line, so the swizzle XORs a row's slots with its low 3
 * bits. Lanes that read rows 4 apart (chapter 06's order) meet only 2 of those 8 values, a 4-way
 * conflict when 8 lanes read one column; INTERLEAVE gives each lane rows LANES_M apart, so that
 * the lanes of a column read consecutive rows, each in its own slot.
 * Stage s: A at s * STAGE_FLOATS, B after it; every stage 1 KiB aligned, as the swizzle's
 * pattern is of the address bits.
 * C's rows unaligned (ldc not a multiple of 4, or C off 16 bytes) take no float4 store: a lane's
 * 4 x 4 block becomes 16 scalar stores, and a warp's store touches the same 32-byte sectors as
 * three others. STAGED_C stores such a tile through the stages' shared memory instead: the lanes'
 * float4s into it, then each warp a row at a time, 32 consecutive floats a store (gemm_store_staged
 * below). */
#ifndef GEMM_TMA_KERNELS_CUH
#define GEMM_TMA_KERNELS_CUH

#include "gemm_async_kernels.cuh"
#include "ptx/tma.cuh"
#include "pack_beside.cuh"

enum { TMA_BK = 32 };

/* The blocks an SM must hold, for __launch_bounds__: the classic 8 x 8 a lane kernel fits 2 in
 * 128 registers a thread, and its staged compilation, left alone, takes 167 (1 block an SM). */
constexpr int tma_min_blocks(int bm, int bn, int nt, bool walk, bool staged_c) {
    return staged_c && !walk && bm * bn / nt == 64 ? 2 : 1;
}

/* A block's BM x BN tile of C at (bm, bn) from its lanes' accumulators through `tile` (shared,
 * staged_c_slot's layout), for C's unaligned rows: C = alpha acc + beta C, up to the edges. The
 * caller's stages must be idle: every copy consumed, and the first barrier here waits for every
 * warp's last reads of them. */
template <int BM, int BN, int NT, int TN>
static __device__ __forceinline__ void
gemm_store_staged(float* tile, float* C, int M, int N, int ldc, int bm, int bn, const async_lane& o,
                  const float (&acc)[MICRO][TN], float alpha, float beta) {
    __syncthreads();
#pragma unroll
    for (int hm = 0; hm < 2; ++hm)
#pragma unroll
        for (int i = 0; i < QUAD; ++i)
#pragma unroll
            for (int hn = 0; hn < TN / QUAD; ++hn) {
                const float* v = &acc[hm * QUAD + i][hn * QUAD];
                *(float4*)&tile[staged_c_slot(BN, o.row0 + hm * o.step_m + i * o.row_step,
                                              o.col0 + hn * o.step_n)] =
                    make_float4(v[0], v[1], v[2], v[3]);
            }
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int r = warp; r < BM && bm + r < M; r += NT / 32) {
        float* const row = C + (size_t)(bm + r) * ldc + bn;
#pragma unroll
        for (int c = lane; c < BN; c += 32)
            if (bn + c < N) gemm_store(row, c, tile[staged_c_slot(BN, r, c)], alpha, beta);
    }
}

COURSE_HD_INLINE int tma_smem_bytes(int bm, int bn, int stages) {
    return stages * (bm + bn) * TMA_BK * 4 + TMA_ALIGN; /* + the slack to align the base */
}

/* w: the blocks' work (gemm_work.h); ldc, vec_c: C's row distance and whether its float4 stores
 * are aligned. WALK false: a block a tile, on a grid of tiles_n x tiles_m blocks, all its slices
 * (a data-parallel launch, the fixed variants'); true: a line of blocks, each walking its range of
 * iterations, the copies running on across its tiles (stream-K). Two compilations of one source,
 * since the walk's state costs the classic launch 1 to 12 points of cuBLAS, and even a tile index
 * divided out of a line of blocks changes how the registers are allocated (results/NOTES.md).
 * STAGED_C: C's whole tiles stored through shared memory (for C's unaligned rows); the walk
 * stages only its last tile, since the copies of the next are in flight in the stages. PACK: the
 * operands packed beside the tiles (pack_beside.cuh, pk): a line of blocks, tiles then spare ones,
 * a tile copying a chunk of K once it is packed; walking, packed alongside by a grid of their own
 * (pack_along), each copy waiting for its chunk. */
template <int BM, int BN, int NT, int LANES_M, int TN, int STAGES, int INTERLEAVE,
          bool WALK = false, bool STAGED_C = false, bool PACK = false>
__global__ void __launch_bounds__(NT, tma_min_blocks(BM, BN, NT, WALK, STAGED_C))
    gemm_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
             int M, int N, float alpha, float beta, float* __restrict__ C, int ldc, int vec_c,
             gemm_work w, const __grid_constant__ gemm_pack_beside pk) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = TMA_BK, A_FLOATS = BM * BK, STAGE_FLOATS = (BM + BN) * BK;
    constexpr unsigned STAGE_BYTES = STAGE_FLOATS * 4;
    static_assert(STAGE_BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
    static_assert(STAGES >= 2 && STAGES <= 4, "2 to 4 stages");
    static_assert(!STAGED_C || BM * (BN + STAGED_C_PAD) <= STAGES * STAGE_FLOATS,
                  "the staged tile of C fits in the stages");
    static_assert((BM / (LANES_M * MICRO)) * (BN / (32 / LANES_M * TN)) * 32 == NT,
                  "the warp tiles cover the block tile, one warp each");
    extern __shared__ float4 smem_raw[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const unsigned raw = smem_address(smem_raw),
                   base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
    float* const stages = (float*)((unsigned char*)smem_raw + (base - raw));

    const int tid = threadIdx.x;
    const async_lane o = async_lane_origin(BN, LANES_M, TN, INTERLEAVE, tid);
    /* the classic tile's corner; the walk's range and the cursor of its fetches */
    const int bm = WALK   ? 0
                   : PACK ? (int)blockIdx.x / pk.tiles_n * BM
                          : blockIdx.y * BM,
              bn = WALK   ? 0
                   : PACK ? (int)blockIdx.x % pk.tiles_n * BN
                          : blockIdx.x * BN;
    long long lo = 0, hi = w.slices;
    if constexpr (WALK) gemm_work_range(&w, (int)blockIdx.x, &lo, &hi);
    const int n = (int)(hi - lo);
    gemm_cursor<BM, BN, BK> cur = {-1, 0, 0, 0, 0, 0};

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&full[s]), 1);
        /* make the initialised barriers visible to the copy engine (the async proxy) */
        fence_proxy_async_shared();
    }
    __syncthreads();
    if constexpr (PACK && !WALK) {
        pack_prologue(pk);
        if ((int)blockIdx.x >= pk.tiles) { /* a spare block: it packs, the tiles compute */
            pack_spare(pk);
            return;
        }
    }
    int known = -1; /* PACK, thread 0: the last chunk it saw packed */

    /* The block's iteration t into stage t % STAGES, by thread 0: the byte count the barrier
     * expects, then the two boxes (coordinates innermost first: A at (k0, bm), B at (bn, k0)).
     * The fence orders the block's earlier reads of the stage (generic proxy) before the copy
     * engine's writes. The issues come in order, t = 0, 1, ...: the cursor only steps. */
    auto issue = [&](int t) {
        const int s = t % STAGES;
        const unsigned bar = smem_address(&full[s]), a = base + s * STAGE_BYTES,
                       b = a + A_FLOATS * 4;
        if constexpr (PACK) { /* beside: a tile's slices from k = 0; alongside: the copy's own k */
            const int c = WALK ? cur.k0 / BK >> pk.ch_log2 : t >> pk.ch_log2;
            if (c > known) pack_wait(pk, known = c); /* chunks are packed in order */
        }
        fence_proxy_async_shared();
        mbarrier_expect_bytes(bar, STAGE_BYTES);
        if constexpr (WALK) {
            tma_load_2d(a, &map_a, cur.k0, cur.m0, bar);
            tma_load_2d(b, &map_b, cur.n0, cur.k0, bar);
            cur.step();
        } else {
            tma_load_2d(a, &map_a, t * BK, bm, bar);
            tma_load_2d(b, &map_b, bn, t * BK, bar);
        }
    };

    if (tid == 0) {
        if constexpr (WALK) cur.seek(0, lo, w);
        for (int t = 0; t < STAGES - 1 && t < n; ++t) issue(t);
    }
    float acc[MICRO][TN] = {};
    auto consume = [&](int t) {
        /* Iteration t's bytes have all landed: the barrier's phase t / STAGES completed. */
        mbarrier_wait(smem_address(&full[t % STAGES]), (unsigned)(t / STAGES) & 1);
        __syncthreads(); /* everyone is done with the stage iteration t + STAGES - 1 refills */
        if (tid == 0 && t + STAGES - 1 < n) issue(t + STAGES - 1);
        const float* as = stages + t % STAGES * STAGE_FLOATS;
        gemm_slice_fma<BN, BK, ASYNC_A_SWIZZLED, TN>(as, as + A_FLOATS, o, acc);
    };
    if constexpr (!WALK) {
        for (int t = 0; t < n; ++t) consume(t);
        if constexpr (STAGED_C)
            gemm_store_staged<BM, BN, NT, TN>(stages, C, M, N, ldc, bm, bn, o, acc, alpha, beta);
        else
            gemm_store_micro_tile(C, M, N, ldc, bm + o.row0, bn + o.col0, o.step_m, o.step_n, acc,
                                  alpha, beta, vec_c, o.row_step);
    } else {
        gemm_segment seg;
        seg.begin(lo, n, w.slices);
        for (int t = 0; t < n; seg.next()) { /* a tile's segment a pass */
            for (; t < seg.end; ++t) consume(t);
            if (STAGED_C && seg.whole() && seg.end == n)
                gemm_store_staged<BM, BN, NT, TN>(
                    stages, C, M, N, ldc, (int)(seg.tile / w.tiles_n) * BM,
                    (int)(seg.tile % w.tiles_n) * BN, o, acc, alpha, beta);
            else
                gemm_segment_store<BM, BN, TN>(w, seg.tile, lo, seg.whole(), o, acc, C, M, N, ldc,
                                               alpha, beta, vec_c);
            gemm_zero(acc);
        }
        /* alongside: the packing grid done before the block is, so that the stream's next work
         * follows both (once the last chunk was seen, only the packers' last counters are left) */
        if constexpr (PACK) asm volatile("griddepcontrol.wait;" ::: "memory");
    }
#else
    (void)map_a, (void)map_b, (void)M, (void)N, (void)alpha, (void)beta, (void)C, (void)ldc,
        (void)vec_c, (void)w, (void)pk;
    __trap();
#endif
}

#endif
