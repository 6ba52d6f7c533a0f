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
 * Every stage is 1 KiB aligned: the 128B swizzle is a pattern of the address bits. The tensor
 * maps need 16-byte aligned rows (K and N multiples of 8): hgemm.cu falls back to hgemm_mma on
 * other shapes. */
#ifndef HGEMM_TMA_KERNELS_CUH
#define HGEMM_TMA_KERNELS_CUH

#include "hgemm_kernels.cuh"
#include "tma.cuh"

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
 * which on 4-byte elements is Swizzle<3,2,3> (16-byte units XORed with the row's low 3 bits). */
static __host__ __device__ inline unsigned hg_c_slot(unsigned r, unsigned c) {
    return c / HG_C_BOX * (HG_C_ROWS * HG_C_BOX) +
           layout_swizzle(r * HG_C_BOX + c % HG_C_BOX, 3, 2, 3);
}

/* The column of the float2 that lane writes in the warp's j-th store of a chunk row (j = 0..7):
 * lane (g, q) = (lane / 4, lane % 4) holds columns 8 j + 2 q of row g (mma_d_element), and odd
 * rows take the 8-column blocks in the order j ^ 2. Why, for one store: 64-bit stores go 16 lanes
 * at a time, and lanes 0..15 are rows g = 0..3, each writing 16-byte units 2 j and 2 j + 1 of its
 * row. Rows of 128 bytes start at bank 0: unswizzled, the 4 rows hit the same 2 units (4-way,
 * 8 wavefronts for 256 bytes). The swizzle XORs the unit with g: (2 j + b) ^ g for g = 0..3 is
 * still only 4 units, each twice (4 wavefronts). With odd rows at j ^ 2, the 8 (g, b) land on
 * all 8 units: 2 wavefronts, the least 256 bytes take. The model counts all three
 * (hgemm_print_model), ncu the kernel's (the ncu test's st column). */
static __host__ __device__ inline unsigned hg_c_column(unsigned j, unsigned lane) {
    return 8 * (j ^ (lane / 4 % 2 * 2)) + 2 * (lane % 4);
}

template <int BM, int BN, int STAGES, int PERSISTENT>
constexpr __host__ __device__ int hgemm_tma_smem_bytes() {
    /* the stages, C's staging buffers (PERSISTENT), the slack to align the base */
    return hgemm_smem_bytes<BM, BN, HG_TMA_BK, STAGES, HG_TMA>() +
           (PERSISTENT ? BM / 64 * (BN / 64) * HG_C_BUFFERS * HG_C_CHUNK * 4 : 0) + TMA_ALIGN;
}

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
                *reinterpret_cast<float2*>(buf + hg_c_slot(g + 8 * h, hg_c_column(j, lane))) =
                    make_float2(alpha * x, alpha * y);
            }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
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

/* ---- Which slices a block computes (PERSISTENT: data-parallel tiles, then stream-K).
 *
 * G blocks, T tiles of S slices. Whole tiles, round-robin, as long as every block gets one:
 * block b takes tiles b, b + G, ... of the first full = T / G rounds. A last round of R = T % G
 * tiles would leave G - R SMs idle for a whole tile's time (at 4096^3, 512 tiles on 132 SMs: the
 * 4th round's 116 tiles keep 16 SMs idle, 3% of the run). Instead its R x S slices are split
 * evenly over all G blocks (stream-K): block of rank r = G - 1 - b takes slices [r U / G,
 * (r + 1) U / G) of them, U = R S, in order. Fewer than S a block, so a range is one or two
 * segments, each in one tile. The segment that holds its tile's slice 0 owns the tile: it adds
 * the partial sums of the tile's other segments (each the first segment of a later rank, which
 * writes it to `partials` and raises its flag before doing anything else, so an owner waits on
 * nothing that waits) and stores C. Ranks run backwards so that an owner waits on blocks of
 * lower index, which the GPU starts first. Below 2 slices a block the split is not worth its
 * partial sums: the last round then stays round-robin. Without PERSISTENT (G = T): one tile a
 * block. */
struct hg_schedule {
    int tiles, slices,
        first_sk_tile; /* tiles [first_sk_tile, T) are split; none when it equals T */
    int dp_tiles;      /* this block's whole tiles: b, b + G, ... */
    int u0, u1;        /* its stream-K slices, numbered from first_sk_tile's slice 0 */
    int segments;
};

static __device__ __forceinline__ int hg_sk_start(int units, int G, int rank) {
    return (int)((long long)units * rank / G);
}

static __device__ __forceinline__ hg_schedule hg_schedule_of(int tiles, int slices) {
    const int G = gridDim.x, b = blockIdx.x, full = tiles / G, rest = tiles % G;
    const int units = rest * slices; /* below 2^31: rest < G, slices <= 2^17 / 64 */
    const bool split = rest > 0 && units >= 2 * G;
    hg_schedule s;
    s.tiles = tiles;
    s.slices = slices;
    s.first_sk_tile = split ? full * G : tiles;
    s.dp_tiles = full + (!split && b < rest);
    const int rank = G - 1 - b;
    s.u0 = split ? hg_sk_start(units, G, rank) : 0;
    s.u1 = split ? hg_sk_start(units, G, rank + 1) : 0;
    const int k0 = s.u0 % slices;
    s.segments = s.dp_tiles + (s.u1 > s.u0) + (k0 + (s.u1 - s.u0) > slices);
    return s;
}

/* Segment i of the block: its tile and slices [k0, k1). */
static __device__ __forceinline__ void hg_segment(const hg_schedule& s, int i, int* tile, int* k0,
                                                  int* k1) {
    if (i < s.dp_tiles) {
        *tile = blockIdx.x + i * (int)gridDim.x, *k0 = 0, *k1 = s.slices;
        return;
    }
    const int first_k = s.u0 % s.slices, length = s.u1 - s.u0;
    const int first_tile = s.first_sk_tile + s.u0 / s.slices;
    if (i == s.dp_tiles) {
        *tile = first_tile, *k0 = first_k;
        *k1 = first_k + length < s.slices ? first_k + length : s.slices;
    } else {
        *tile = first_tile + 1, *k0 = 0, *k1 = first_k + length - s.slices;
    }
}

/* Partial sums: block b's at partials + b * BM * BN, thread tid's 128 floats as 32 float4 at
 * [e4 * threads + tid] (each warp's store 512 contiguous bytes); flags[b] = epoch when written. */
template <int NT>
static __device__ __forceinline__ void hg_partial_out(const float (&acc)[4][8][4], float* mine,
                                                      unsigned* flag, unsigned epoch) {
    float4* const out = reinterpret_cast<float4*>(mine) + threadIdx.x;
#pragma unroll
    for (int e4 = 0; e4 < 32; ++e4) {
        const float* a = acc[e4 / 8][e4 % 8];
        out[e4 * NT] = make_float4(a[0], a[1], a[2], a[3]);
    }
    __threadfence(); /* the sums before the flag, for every thread */
    __syncthreads();
    if (threadIdx.x == 0)
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(epoch) : "memory");
}

/* Wait for flags[b] == epoch (thread 0, acquiring), then add block b's partial sums. */
template <int NT>
static __device__ __forceinline__ void hg_partial_in(float (&acc)[4][8][4], const float* theirs,
                                                     const unsigned* flag, unsigned epoch) {
    if (threadIdx.x == 0) {
        unsigned seen;
        do asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
        while (seen != epoch);
    }
    __syncthreads();
    const float4* const in = reinterpret_cast<const float4*>(theirs) + threadIdx.x;
    /* 4 loads at a time: all 32 in flight would take 128 registers beside the accumulators */
#pragma unroll
    for (int e4 = 0; e4 < 32; ++e4) {
        if (e4 % 4 == 0) asm volatile("" ::: "memory");
        const float4 v = __ldcg(in + e4 * NT);
        float* a = acc[e4 / 8][e4 % 8];
        a[0] += v.x, a[1] += v.y, a[2] += v.z, a[3] += v.w;
    }
}

/* K > 0 and a grid of at most one block a tile (hgemm.cu's launch sees to both). */
template <int BM, int BN, int STAGES, int PERSISTENT>
__global__ void __launch_bounds__(BM / 64 * (BN / 64) * 32)
    hgemm_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
              const __grid_constant__ CUtensorMap map_c, float* __restrict__ C, int M, int N, int K,
              float alpha, float beta, float* partials, unsigned* flags, unsigned epoch) {
#if __CUDA_ARCH__ >= 900
    constexpr int BK = HG_TMA_BK, MT = 4, NT8 = 8, KS = BK / 16, NT = BM / 64 * (BN / 64) * 32;
    typedef hg_stage<BM, BN, BK, HG_TMA> Stage;
    typedef typename Stage::A TA;
    typedef typename Stage::B TB;
    constexpr unsigned STAGE_BYTES = Stage::HALVES * 2;
    static_assert(STAGE_BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
    static_assert(STAGES >= 2, "a stage to compute on and one to fill");
    extern __shared__ uint4 hg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const unsigned raw = smem_address(hg_smem),
                   base = (raw + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
    unsigned char* const aligned = reinterpret_cast<unsigned char*>(hg_smem) + (base - raw);
    const __half* const smem = reinterpret_cast<const __half*>(aligned);

    const hg_place p = hg_place_of<BM, BN, BK>(M, N, K, blockIdx.x);
    const int tid = p.tid, lane = p.lane, wm = p.wm, wn = p.wn;

    /* The block's segments (hg_schedule_of), in shared memory: read once a segment. */
    __shared__ hg_schedule work;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&full[s]), 1);
        /* make the initialised barriers visible to the copy engine (the async proxy) */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        const int tiles = (M + BM - 1) / BM * ((N + BN - 1) / BN), slices = (K + BK - 1) / BK;
        work = PERSISTENT ? hg_schedule_of(tiles, slices)
                          : hg_schedule{tiles, slices, tiles, 1, 0, 0, 1};
    }
    __syncthreads();
    const int segments = work.segments;
    if (segments == 0) return; /* a stream-K rank with no slices (tiny problems) */

    /* Thread 0's copies, in registers (it issues them between other warps' mma, and every
     * cycle it spends holds up the next barrier): the next slice to load is slice next_t of
     * segment next_i (its tile at next_bm, next_bn; up to next_k1), STAGES slices ahead of the
     * warps and on into the next segment. Into stage s: the byte count, then A's box at
     * (k, bm) and B's panels at (bn + 64 panel, k). The fence orders the block's earlier reads
     * of the stage (the generic proxy, ordered before this thread by the barrier) before the
     * copy engine's writes. */
    int next_i = 0, next_t, next_k1, next_bm, next_bn;
    auto enter = [&](int i) {
        int tile;
        hg_segment(work, i, &tile, &next_t, &next_k1);
        const hg_place q = hg_place_of<BM, BN, BK>(M, N, K, tile);
        next_bm = q.bm;
        next_bn = q.bn;
    };
    enter(0);
    auto issue = [&](int s) {
        const unsigned bar = smem_address(&full[s]), a = base + s * STAGE_BYTES,
                       b = a + TA::HALVES * 2;
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        mbarrier_expect_bytes(bar, STAGE_BYTES);
        tma_load_2d(a, &map_a, next_t * BK, next_bm, bar);
#pragma unroll
        for (int panel = 0; panel < BN / 64; ++panel)
            tma_load_2d(b + TB::at(0, 64 * panel) * 2, &map_b, next_bn + 64 * panel, next_t * BK,
                        bar);
        if (++next_t == next_k1 && ++next_i < segments) enter(next_i);
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
        for (int s = 0; s < STAGES && next_i < segments; ++s) issue(s);
    mbarrier_wait(smem_address(&full[0]), 0);
    fragments(0, 0, 0);
    /* The block's slices are one sequence over its segments: the g-th is in stage g % STAGES,
     * whose barrier completes its phase number g / STAGES: parity `phase`. Before the last step
     * of a slice: the barrier (the slice's stage is read) and the wait for the next slice, whose
     * first fragments that step loads; after it, the stage's refill. */
    int s = 0, phase = 0;
    for (int i = 0; i < segments; ++i) {
        int tile, k0, k1;
        hg_segment(work, i, &tile, &k0, &k1);
        const bool last_segment = i + 1 == segments;
        float acc[MT][NT8][4] = {};
        for (int t = k0; t < k1; ++t) {
            const int s_next = s + 1 == STAGES ? 0 : s + 1;
            const int phase_next = s + 1 == STAGES ? phase ^ 1 : phase;
            const bool more = t + 1 < k1 || !last_segment;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                if (ks == KS - 1) {
                    __syncthreads();
                    if (more) mbarrier_wait(smem_address(&full[s_next]), phase_next);
                }
                if (ks + 1 < KS)
                    fragments((ks + 1) % 2, s, ks + 1);
                else if (more)
                    fragments(0, s_next, 0);
                hg_mma_step(acc, af[ks % 2], bf[ks % 2]);
                /* stage s is read (the barrier): its refill, behind warp 0's mma */
                if (ks == KS - 1 && tid == 0 && next_i < segments) issue(s);
            }
            s = s_next;
            phase = phase_next;
        }
        if (PERSISTENT && k0 > 0) { /* a later part of the tile's slices: its partial sums */
            hg_partial_out<NT>(acc, partials + (size_t)blockIdx.x * BM * BN, &flags[blockIdx.x],
                               epoch);
            continue;
        }
        if (PERSISTENT && k1 < work.slices) { /* the owner: the later parts, rank by rank */
            const int tile_end = (tile - work.first_sk_tile + 1) * work.slices;
            const int units = (work.tiles - work.first_sk_tile) * work.slices;
            for (int rank = (int)gridDim.x - blockIdx.x;
                 rank < (int)gridDim.x && hg_sk_start(units, gridDim.x, rank) < tile_end; ++rank) {
                const int b = (int)gridDim.x - 1 - rank;
                hg_partial_in<NT>(acc, partials + (size_t)b * BM * BN, &flags[b], epoch);
            }
        }
        const hg_place here = hg_place_of<BM, BN, BK>(M, N, K, tile);
        if (PERSISTENT && beta == 0.0f)
            hg_store_tma(&map_c,
                         reinterpret_cast<float*>(aligned + STAGES * STAGE_BYTES) +
                             threadIdx.x / 32 * HG_C_BUFFERS * HG_C_CHUNK,
                         here.bm + wm, here.bn + wn, acc, alpha, threadIdx.x % 32);
        else
            hg_store(C, M, N, here.bm + wm, here.bn + wn, acc, alpha, beta, lane);
    }
    /* the stores' reads of shared memory and their writes, done before the block leaves */
    if (PERSISTENT && lane == 0) tma_store_wait_all();
#else
    (void)map_a, (void)map_b, (void)map_c, (void)C, (void)M, (void)N, (void)K, (void)alpha,
        (void)beta, (void)partials, (void)flags, (void)epoch;
    __trap();
#endif
}

#endif
