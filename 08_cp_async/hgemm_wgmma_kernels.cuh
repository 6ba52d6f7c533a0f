/* Chapter 08, part 3 on Hopper's own instruction (sm_90a): the tensor-core GEMM on wgmma, whose
 * operands the tensor cores read straight from shared memory through matrix descriptors
 * (model/wgmma_desc.h), in the swizzle the TMA wrote them in. No ldmatrix, no fragments in
 * registers: a warpgroup (4 warps) issues one wgmma.m64n256k16 for a 64 x 256 x 16 step, and only
 * the accumulators, 64 x 256 floats, live in its registers (128 a thread).
 *
 * A stage holds 64 k of the block's tile: A (BM x 64, K-major: its rows run along K) as 128 / S
 * boxes of BM rows x S bytes, then B (64 x 256, MN-major: its rows run along N) as 512 / S boxes
 * of 64 rows x S bytes, S the mode's atom row (128, 64, 32 bytes; 16 for none), each box one
 * atom wide, as wgmma_tma_strides lays them. The mode is a template parameter: the same kernel in
 * all four modes is the chapter's measurement of what a mode costs.
 *
 * The steps, each a variant measured beside the last (tensor_variants.cu):
 *   16 hgemm_wgmma             one warpgroup, a 64 x 256 tile, thread 0 refilling each stage
 *                              after a block barrier, as hgemm_tma does;
 *   17 hgemm_wgmma_ws          warp specialisation: a producer warpgroup issues the copies, two
 *                              consumer warpgroups compute 128 x 256, and mbarriers, not block
 *                              barriers, hand each stage over: full (its bytes landed) and empty
 *                              (both consumers' wgmma have read it); the producer gives its
 *                              registers to the consumers (setmaxnreg);
 *   18 hgemm_wgmma_persistent  one block an SM walking the tiles, the producer loading the next
 *                              tile while the consumers store this one;
 *   19 hgemm_wgmma_tma_c       the same, C leaving through the TMA (hgemm_tma_persistent's
 *                              staging, hgemm_layout.h);
 *   21 hgemm_wgmma_cluster     the same in clusters of 2 blocks on tiles one above the other:
 *                              each block's producer loads its own A and half of B's slice,
 *                              which the TMA writes into both blocks (multicast), so that L2
 *                              sends each slice of B once for two tiles.
 * Every stage is 1 KiB aligned: the swizzles are patterns of the address bits, and each
 * descriptor's base offset is then 0. */
#ifndef HGEMM_WGMMA_KERNELS_CUH
#define HGEMM_WGMMA_KERNELS_CUH

#include "hgemm_c_staging.cuh"
#include "hgemm_layout.h"
#include "hgemm_tiles.cuh"
#include "model/wgmma_desc.h"
#include "ptx/cluster.cuh"
#include "ptx/shared.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"

#include <cuda.h>
#include <cuda_fp16.h>

enum { WG_BN = 256, WG_THREADS = 128, WG_CONSUMERS = 2, WG_BK = HG_TMA_BK };

/* A stage in mode MODE for BM rows of A (bytes). */
template <int BM, int MODE>
struct wg_stage {
    static constexpr unsigned S = wgmma_span((wgmma_mode)MODE);
    static constexpr unsigned A_BOXES = WG_BK * 2 / S, B_BOXES = WG_BN * 2 / S;
    static constexpr unsigned A_BOX = BM * S, B_BOX = WG_BK * S;
    static constexpr unsigned A_BYTES = A_BOXES * A_BOX, BYTES = A_BYTES + B_BOXES * B_BOX;
    static_assert(BYTES % TMA_ALIGN == 0, "every stage 1 KiB aligned");
};

template <int BM, int STAGES, int MODE>
constexpr __host__ __device__ int wg_smem_bytes() {
    return STAGES * wg_stage<BM, MODE>::BYTES + TMA_ALIGN;
}

/* The first 1 KiB boundary at or past the block's dynamic shared memory. */
static __device__ __forceinline__ unsigned wg_aligned_base(const void* smem) {
    return (smem_address(smem) + TMA_ALIGN - 1) / TMA_ALIGN * TMA_ALIGN;
}

/* Where the walk's tile `tile` is, (bm, bn), for block `rank` of a cluster of CLUSTER blocks down
 * M: the walk takes CLUSTER tile-rows as one (hg_tile_of's order, 8 tile-rows at a time), and
 * block `rank` its row `rank`, past M where the tile-rows do not divide (A's zeros in, nothing
 * out). The walk's length: wg_walk_tiles. */
template <int BM, int CLUSTER>
static __device__ __forceinline__ void wg_tile_origin(int tile, int M, int N, int rank, int* bm,
                                                      int* bn) {
    int tm, tn;
    hg_tile_of<8 / CLUSTER>(tile, ((M + BM - 1) / BM + CLUSTER - 1) / CLUSTER,
                            (N + WG_BN - 1) / WG_BN, &tm, &tn);
    *bm = (tm * CLUSTER + rank) * BM;
    *bn = tn * WG_BN;
}

template <int BM, int CLUSTER>
static __host__ __device__ __forceinline__ int wg_walk_tiles(int M, int N) {
    return ((M + BM - 1) / BM + CLUSTER - 1) / CLUSTER * ((N + WG_BN - 1) / WG_BN);
}

/* One slice (64 k) of the block tile at (bm, bn) into the stage at `stage`, its bytes counted on
 * `bar`: A's boxes at (k0 + j S / 2, bm), B's at (bn + j S / 2, k0), innermost first. In a cluster
 * of CLUSTER blocks on one B, block `rank` loads B's boxes j = rank, rank + CLUSTER, ... into
 * every block's stage: each block's barrier counts the whole stage, its own A and all of B. */
template <int BM, int MODE, int CLUSTER = 1>
static __device__ __forceinline__ void
wg_load_slice(unsigned stage, unsigned bar, const CUtensorMap* map_a, const CUtensorMap* map_b,
              int k0, int bm, int bn, unsigned rank = 0) {
    typedef wg_stage<BM, MODE> St;
    static_assert(St::B_BOXES % CLUSTER == 0, "B's boxes shared out evenly");
    mbarrier_expect_bytes(bar, St::BYTES);
#pragma unroll
    for (unsigned j = 0; j < St::A_BOXES; ++j)
        tma_load_2d(stage + j * St::A_BOX, map_a, k0 + (int)(j * St::S / 2), bm, bar);
#pragma unroll
    for (unsigned j = rank; j < St::B_BOXES; j += CLUSTER) {
        const unsigned dst = stage + St::A_BYTES + j * St::B_BOX;
        const int x = bn + (int)(j * St::S / 2);
        if (CLUSTER == 1)
            tma_load_2d(dst, map_b, x, k0, bar);
        else
            tma_load_2d_multicast(dst, map_b, x, k0, bar, (1u << CLUSTER) - 1);
    }
}

/* A consumer warp done with the stage whose empty barrier is `bar`: one arrival on it in each
 * block of the cluster, since each block's producer refills the stage in all of them. */
template <int CLUSTER>
static __device__ __forceinline__ void wg_release(unsigned bar) {
#pragma unroll
    for (unsigned r = 0; r < CLUSTER; ++r) {
        if (CLUSTER == 1)
            mbarrier_arrive(bar);
        else
            mbarrier_arrive_cluster(cluster_map_shared(bar, r));
    }
}

/* The descriptors of the 4 k16 steps of stage 0 (at `base`) for warpgroup wg's 64 rows of A and
 * for B; stage s is the same plus s BYTES >> 4 in the start field. A's step ks starts 32 ks bytes
 * along its rows: inside an atom row (128B, 64B), the next box (32B) or two boxes on (none); B's,
 * 16 ks rows of S bytes on. Each lies in an atom on its period, so every base offset is 0. */
template <int BM, int MODE>
static __device__ __forceinline__ void
wg_descriptors(unsigned base, int wg, unsigned long long (&da)[4], unsigned long long (&db)[4]) {
    typedef wg_stage<BM, MODE> St;
    const wgmma_mode m = (wgmma_mode)MODE;
    unsigned a_lbo, a_sbo, b_lbo, b_sbo;
    wgmma_tma_strides(m, 1, BM, &a_lbo, &a_sbo);
    wgmma_tma_strides(m, 0, WG_BK, &b_lbo, &b_sbo);
#pragma unroll
    for (unsigned ks = 0; ks < 4; ++ks) {
        const unsigned atom = base + wg * 64 * St::S + 32 * ks / St::S * St::A_BOX;
        da[ks] = wgmma_desc(m, atom + 32 * ks % St::S, atom, a_lbo, a_sbo);
        const unsigned b = base + St::A_BYTES + 16 * ks * St::S;
        db[ks] = wgmma_desc(m, b, b, b_lbo, b_sbo);
    }
}

/* One slice into acc: 4 wgmma of 64 x 256 x 16 (A K-major, B MN-major: trans-b), one group. The
 * fences: acc's registers written before (zeroed, or the last group's) are the wgmma's to read. */
static __device__ __forceinline__ void wg_mma_slice(float (&acc)[128],
                                                    const unsigned long long (&da)[4],
                                                    const unsigned long long (&db)[4],
                                                    unsigned long long stage_field) {
    wgmma_fence_operand(acc);
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < 4; ++ks)
        wgmma_m64n256k16<0, 1>(acc, da[ks] + stage_field, db[ks] + stage_field, 1);
    wgmma_commit();
    wgmma_fence_operand(acc);
}

/* alpha acc + beta C into C (ldc = N) from registers, the warpgroup's 64 x 256 at (row0, col0);
 * t: the thread in its warpgroup. N is a multiple of 8 (the TMA's rows), so a pair never
 * straddles the edge. */
static __device__ __forceinline__ void wg_store(float* C, int M, int N, int row0, int col0,
                                                const float (&acc)[128], float alpha, float beta,
                                                int t) {
#pragma unroll
    for (int i = 0; i < 128; i += 2) {
        const int r = row0 + wgmma_d_row(t, i), c = col0 + wgmma_d_col(t, i);
        if (r >= M || c >= N) continue;
        float2* out = reinterpret_cast<float2*>(C + (size_t)r * N + c);
        float2 v = make_float2(alpha * acc[i], alpha * acc[i + 1]);
        if (beta != 0.0f) {
            const float2 old = *out;
            v.x += beta * old.x;
            v.y += beta * old.y;
        }
        *out = v;
    }
}

/* alpha acc out through the TMA (beta = 0): the warp's 16 rows x 256 at (row0, col0) in 4 chunks
 * of 16 x 64 (hg_store_chunk_tma). One buffer a warp: before it is written again, lane 0 waits
 * until the copy engine has read the last chunk. */
static __device__ __forceinline__ void wg_store_tma(const CUtensorMap* map_c, float* buf, int row0,
                                                    int col0, const float (&acc)[128], float alpha,
                                                    int lane) {
#pragma unroll
    for (int chunk = 0; chunk < 4; ++chunk) {
        if (lane == 0) tma_store_wait_read<0>();
        __syncwarp();
        hg_store_chunk_tma(map_c, buf, row0, col0 + 64 * chunk, alpha, lane,
                           [&](int j, int e) { return acc[32 * chunk + 4 * j + e]; });
    }
}

/* Kernel 16: one warpgroup, a 64 x 256 tile a block. K > 0, a grid of one block a tile. */
template <int STAGES, int MODE>
__global__ void __launch_bounds__(WG_THREADS, 1)
    hgemm_wgmma(const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b, float* __restrict__ C, int M, int N,
                int K, float alpha, float beta) {
#if COURSE_WGMMA
    typedef wg_stage<64, MODE> St;
    extern __shared__ uint4 wg_smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const unsigned base = wg_aligned_base(wg_smem);
    const int tid = threadIdx.x, slices = (K + WG_BK - 1) / WG_BK;
    int bm, bn;
    hg_tile_origin<64, WG_BN>(blockIdx.x, M, N, &bm, &bn);
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbarrier_init(smem_address(&full[s]), 1);
        fence_proxy_async_shared();
        for (int s = 0; s < STAGES && s < slices; ++s)
            wg_load_slice<64, MODE>(base + s * St::BYTES, smem_address(&full[s]), &map_a, &map_b,
                                    s * WG_BK, bm, bn);
    }
    __syncthreads();
    unsigned long long da[4], db[4];
    wg_descriptors<64, MODE>(base, 0, da, db);
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
    int stage = 0, phase = 0, last = 0;
    for (int t = 0; t < slices; ++t) {
        mbarrier_wait(smem_address(&full[stage]), phase);
        wg_mma_slice(acc, da, db, stage * St::BYTES >> 4);
        /* slice t - 1's wgmma are done; once every warp knows it, thread 0 refills its stage */
        wgmma_wait<1>();
        if (t > 0) {
            __syncthreads();
            if (tid == 0 && t - 1 + STAGES < slices)
                wg_load_slice<64, MODE>(base + last * St::BYTES, smem_address(&full[last]), &map_a,
                                        &map_b, (t - 1 + STAGES) * WG_BK, bm, bn);
        }
        last = stage;
        if (++stage == STAGES) stage = 0, phase ^= 1;
    }
    wgmma_wait<0>();
    wgmma_fence_operand(acc);
    wg_store(C, M, N, bm, bn, acc, alpha, beta, tid);
#else
    (void)map_a, (void)map_b, (void)C, (void)M, (void)N, (void)K, (void)alpha, (void)beta;
    __trap();
#endif
}

/* Kernels 17 to 21: warpgroups 0 and 1 compute rows 0..63 and 64..127 of a 128 x 256 tile,
 * warpgroup 2's first thread loads; PERSISTENT: a grid of at most one block a tile, each block
 * walking tiles blockIdx.x, + gridDim.x, ... (else one block a tile); STORE_TMA: with beta = 0,
 * C through map_c; CLUSTER 2 (persistent only): launched in clusters of 2 blocks, cluster c
 * walking pairs of tiles c, + the clusters, ..., B's slices shared (wg_load_slice). K > 0. */
template <int STAGES, int MODE, bool PERSISTENT, bool STORE_TMA, int CLUSTER = 1>
__global__ void __launch_bounds__(3 * WG_THREADS, 1)
    hgemm_wgmma_ws(const __grid_constant__ CUtensorMap map_a,
                   const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, float* __restrict__ C, int M, int N,
                   int K, float alpha, float beta) {
#if COURSE_WGMMA
    constexpr int BM = 64 * WG_CONSUMERS;
    typedef wg_stage<BM, MODE> St;
    extern __shared__ uint4 wg_smem[];
    /* full[s]: stage s's bytes have landed; empty[s]: the consumers' 8 warps are done with it */
    __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
    const unsigned base = wg_aligned_base(wg_smem);
    static_assert(CLUSTER == 1 || PERSISTENT, "clusters walk the tiles");
    const int tid = threadIdx.x, wg = tid / WG_THREADS, slices = (K + WG_BK - 1) / WG_BK;
    const int tiles = wg_walk_tiles<BM, CLUSTER>(M, N);
    const unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;
    const int first = CLUSTER > 1 ? (int)cluster_index() : (int)blockIdx.x;
    const int step = CLUSTER > 1 ? (int)cluster_count() : PERSISTENT ? (int)gridDim.x : tiles;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(smem_address(&full[s]), 1);
            mbarrier_init(smem_address(&empty[s]), 4 * WG_CONSUMERS * CLUSTER);
        }
        fence_proxy_async_shared();
        if (CLUSTER > 1) fence_mbarrier_init_cluster();
    }
    /* in a cluster: no block's copies or arrivals reach another's barriers before they exist */
    if (CLUSTER > 1)
        cluster_sync();
    else
        __syncthreads();

    if (wg == WG_CONSUMERS) { /* the producer */
        setmaxnreg_dec<40>();
        if (tid == WG_CONSUMERS * WG_THREADS) {
            int stage = 0, phase = 0;
            for (int tile = first; tile < tiles; tile += step) {
                int bm, bn;
                wg_tile_origin<BM, CLUSTER>(tile, M, N, rank, &bm, &bn);
                for (int t = 0; t < slices; ++t) {
                    /* a fresh barrier counts as having completed the phase before its first */
                    mbarrier_wait(smem_address(&empty[stage]), phase ^ 1);
                    wg_load_slice<BM, MODE, CLUSTER>(base + stage * St::BYTES,
                                                     smem_address(&full[stage]), &map_a, &map_b,
                                                     t * WG_BK, bm, bn, rank);
                    if (++stage == STAGES) stage = 0, phase ^= 1;
                }
            }
        }
        /* the other block's copies into this one's stages, and its arrivals, are done first */
        if (CLUSTER > 1) cluster_sync();
        return;
    }

    /* the producer's 128 x (168 - 40) registers are the consumers' 256 x (232 - 168): the split
     * holds only where ptxas gave the kernel 168 a thread (384 threads, one block an SM) */
    setmaxnreg_inc<232>();
    const int lane = tid % 32, t_in_wg = tid % WG_THREADS;
    float* const c_buf =
        reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(wg_smem) +
                                 (base - smem_address(wg_smem)) + STAGES * St::BYTES) +
        tid / 32 * HG_C_CHUNK;
    unsigned long long da[4], db[4];
    wg_descriptors<BM, MODE>(base, wg, da, db);
    int stage = 0, phase = 0;
    for (int tile = first; tile < tiles; tile += step) {
        float acc[128];
#pragma unroll
        for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
        int last = 0;
        for (int t = 0; t < slices; ++t) {
            mbarrier_wait(smem_address(&full[stage]), phase);
            wg_mma_slice(acc, da, db, stage * St::BYTES >> 4);
            /* slice t - 1's wgmma have read their stage: each warp hands it back */
            wgmma_wait<1>();
            if (t > 0 && lane == 0) wg_release<CLUSTER>(smem_address(&empty[last]));
            last = stage;
            if (++stage == STAGES) stage = 0, phase ^= 1;
        }
        wgmma_wait<0>();
        wgmma_fence_operand(acc);
        if (lane == 0) wg_release<CLUSTER>(smem_address(&empty[last]));
        int bm, bn;
        wg_tile_origin<BM, CLUSTER>(tile, M, N, rank, &bm, &bn);
        if (bm >= M) continue; /* a cluster's tile past M */
        if (STORE_TMA && beta == 0.0f)
            wg_store_tma(&map_c, c_buf, bm + 64 * wg + 16 * (t_in_wg / 32), bn, acc, alpha, lane);
        else
            wg_store(C, M, N, bm + 64 * wg, bn, acc, alpha, beta, t_in_wg);
    }
    /* the stores' reads of shared memory and their writes, done before the block leaves */
    if (STORE_TMA && lane == 0) tma_store_wait_all();
    if (CLUSTER > 1) cluster_sync();
#else
    (void)map_a, (void)map_b, (void)map_c, (void)C, (void)M, (void)N, (void)K, (void)alpha,
        (void)beta;
    __trap();
#endif
}

/* The wgmma ceiling: two warpgroups a block, one block an SM, each issuing `iters` slices of 4
 * m64n256k16 from one 128B stage in shared memory, no global traffic but the sums out. The stage
 * holds halves in [-1, 1), as the GEMMs' inputs do: the tensor cores draw less power on zeros,
 * and so could clock higher than on a GEMM's data. */
enum { WG_CEILING_ITERS = 4096 };

__global__ void __launch_bounds__(WG_CONSUMERS* WG_THREADS, 1)
    wgmma_ceiling(int iters, float* out) {
#if COURSE_WGMMA
    typedef wg_stage<64 * WG_CONSUMERS, WGMMA_128B> St;
    extern __shared__ uint4 wg_smem[];
    const unsigned base = wg_aligned_base(wg_smem);
    const int tid = threadIdx.x;
    for (unsigned i = tid; i < St::BYTES / 2; i += blockDim.x) {
        const unsigned h = i * 2654435761u; /* a multiplicative hash: any spread of values */
        st_shared(base + 2 * i, __half_as_ushort(__float2half((h >> 22) / 512.0f - 1.0f)));
    }
    fence_proxy_async_shared(); /* plain stores, read by wgmma: the async proxy */
    __syncthreads();
    unsigned long long da[4], db[4];
    wg_descriptors<64 * WG_CONSUMERS, WGMMA_128B>(base, tid / WG_THREADS, da, db);
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
    for (int it = 0; it < iters; ++it) {
        wg_mma_slice(acc, da, db, 0);
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    wgmma_fence_operand(acc);
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < 128; ++i) sum += acc[i];
    out[blockIdx.x * blockDim.x + tid] = sum;
#else
    (void)iters, (void)out;
    __trap();
#endif
}

#endif
