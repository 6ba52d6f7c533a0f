/* Chapter 08, part 2: chapter 06's SGEMM fed by cp.async. A block computes a BM x BN tile of C
 * with NT threads in warps of LANES_M x (32 / LANES_M) lanes, each lane an 8 x TN micro-tile
 * (gemm_async.h: async_lane_origin). Two geometries are measured: chapter 06's (256 threads,
 * 8 x 8 a lane, TN = 8) and cuBLAS's (128 threads, 8 x 16 a lane, warps of 64 x 64, TN = 16).
 * cp.async changes two things:
 *   - A's slice cannot be stored transposed (a copy moves 16 contiguous bytes): it stays
 *     row-major, As[m][k], and a lane reads a float4 along k for each of its 8 rows, 4 k at a
 *     time. Rows 4 apart then share banks; A_LAYOUT = ASYNC_A_SWIZZLED stores the slice through
 *     Swizzle<3,4,3> on bytes (gemm_async.h), the TMA's 128B mode, which spreads them (and
 *     ASYNC_A_PADDED is the trap: the padding that fixes scalar tiles misaligns the copies);
 *   - STAGES (2 to 4) stage buffers: STAGES - 1 slices in flight while one is computed, the
 *     bookkeeping pipeline.h's, from the policy SCHEDULE (reference_schedule below; the exercise's
 *     variant and test instantiate the kernel with exercise_schedule.cuh's).
 * Shared memory is dynamic: STAGES x (BM + BN) x BK floats, 64 KiB for async_bk32_2, past the
 * 48 KiB a kernel gets without opting in (gemm_configure).
 * vec: K and N multiples of 4 and 16-byte aligned matrices, so every 16-byte chunk is either
 * wholly inside or wholly outside (then zero-filled); without it, 4-byte copies. */
#ifndef GEMM_ASYNC_KERNELS_CUH
#define GEMM_ASYNC_KERNELS_CUH

#include "gemm_async.h"
#include "gemm_work.h"
#include "pipeline.h"
#include "gemm/tile_io.cuh"
#include "ptx/cp_async.cuh"

/* One K-slice of a lane's 8 x TN micro-tile from a stage: per 4 k, a float4 along k of each of
 * its 8 rows of A, then per k TN / 4 float4 of B. */
template <int BN, int BK, int A_LAYOUT, int TN>
static __device__ __forceinline__ void
gemm_slice_fma(const float* as, const float* bs, const async_lane& o, float (&acc)[MICRO][TN]) {
    const int a_lane = async_a_slot(A_LAYOUT, BK, o.row0, 0); /* once; the rest is constants */
#pragma unroll
    for (int kq = 0; kq < BK; kq += QUAD) {
        float4 a[MICRO];
#pragma unroll
        for (int i = 0; i < QUAD; ++i) {
            const int r = i * o.row_step;
            a[i] = *(const float4*)&as[async_a_read_slot(A_LAYOUT, BK, a_lane, r, kq)];
            a[QUAD + i] =
                *(const float4*)&as[async_a_read_slot(A_LAYOUT, BK, a_lane, r + o.step_m, kq)];
        }
#pragma unroll
        for (int j = 0; j < QUAD; ++j) {
            float b[TN];
#pragma unroll
            for (int h = 0; h < TN / QUAD; ++h) {
                const float4 v = *(const float4*)&bs[(kq + j) * BN + o.col0 + h * o.step_n];
                b[h * QUAD] = v.x, b[h * QUAD + 1] = v.y, b[h * QUAD + 2] = v.z,
                      b[h * QUAD + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < MICRO; ++i) {
                const float ai = j == 0 ? a[i].x : j == 1 ? a[i].y : j == 2 ? a[i].z : a[i].w;
#pragma unroll
                for (int n = 0; n < TN; ++n) acc[i][n] = fmaf(ai, b[n], acc[i][n]);
            }
        }
    }
}

/* The schedule of pipeline.h at iteration t of `slices` through STAGES stages: wait until only the
 * STAGES - 2 newest groups may be in flight (slice t's has landed), read slice t's stage, refill
 * the stage iteration t - 1 read with the slice STAGES - 1 ahead (none past the last). The stages
 * are counted unsigned (t is never negative): a power of two's remainder is then a mask without
 * a sign's correction. */
struct reference_schedule {
    template <int STAGES>
    static __device__ __forceinline__ pipeline_step at(int t, int slices) {
        pipeline_step p;
        p.wait_depth = STAGES - 2;
        p.read_stage = (int)((unsigned)t % STAGES);
        p.fetch_slice = t + STAGES - 1 < slices ? t + STAGES - 1 : -1;
        p.fetch_stage = (int)((unsigned)(t + STAGES - 1) % STAGES);
        return p;
    }
};

/* Walks a block's iterations (gemm_work.h) in order: the tile's first row and column and the
 * K-slice's first k of the next fetch, block-relative iteration f, advanced a step at a time in
 * 32-bit adds and compares (the fetch runs every slice, in thread 0 alone for the TMA, where the
 * block then waits for it at the next barrier), and found by division only at the start or where
 * a schedule does not fetch in order. */
template <int BM, int BN, int BK>
struct gemm_cursor {
    int f; /* the block's iteration lo + f is at (m0, n0, k0); -1: none yet */
    int m0, n0, k0, k_end, n_end;
    __device__ __forceinline__ void seek(int f_, long long lo, const gemm_work& w) {
        if (f_ == f) return;
        const long long i = lo + f_, tile = i / w.slices;
        const int tile_m = (int)(tile / w.tiles_n);
        k0 = (int)(i - tile * w.slices) * BK;
        m0 = tile_m * BM, n0 = (int)(tile - (long long)tile_m * w.tiles_n) * BN;
        k_end = w.slices * BK, n_end = w.tiles_n * BN;
        f = f_;
    }
    __device__ __forceinline__ void step() {
        ++f;
        if ((k0 += BK) < k_end) return;
        k0 = 0;
        if ((n0 += BN) == n_end) n0 = 0, m0 += BM;
    }
};

/* The tile a block is computing and where its segment of the block's range ends, in the block's
 * own iterations 0 .. n-1: at the end of each segment the block stores what it has (storing
 * below) and starts the next tile from zero. */
struct gemm_segment {
    long long tile;
    int start, end, n, slices;
    __device__ __forceinline__ void begin(long long lo, int n_, int slices_) {
        n = n_, slices = slices_, tile = lo / slices, start = 0;
        end = (int)((tile + 1) * slices - lo);
        if (end > n) end = n;
    }
    __device__ __forceinline__ bool whole() const { return end - start == slices; }
    __device__ __forceinline__ void next() {
        ++tile, start = end;
        end = end + slices < n ? end + slices : n;
    }
};

template <int TN>
static __device__ __forceinline__ void gemm_zero(float (&acc)[MICRO][TN]) {
#pragma unroll
    for (int i = 0; i < MICRO; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
}

/* A lane's micro-tile at the end of a tile's segment: into C if the block covered the tile whole,
 * else its part into the block's slot of the stream-K workspace (gemm_work.h). */
template <int BM, int BN, int TN>
static __device__ __forceinline__ void
gemm_segment_store(const gemm_work& w, long long tile, long long lo, int whole_tile,
                   const async_lane& o, const float (&acc)[MICRO][TN], float* C, int M, int N,
                   int ldc, float alpha, float beta, int vec_c) {
    if (whole_tile) {
        const int bm = (int)(tile / w.tiles_n) * BM, bn = (int)(tile % w.tiles_n) * BN;
        gemm_store_micro_tile(C, M, N, ldc, bm + o.row0, bn + o.col0, o.step_m, o.step_n, acc,
                              alpha, beta, vec_c, o.row_step);
    } else {
        const int slot = 2 * ((int)blockIdx.x - w.whole) + (tile == lo / w.slices ? 0 : 1);
        gemm_store_micro_tile(w.partial + (size_t)slot * BM * BN, BM, BN, BN, o.row0, o.col0,
                              o.step_m, o.step_n, acc, 1.0f, 0.0f, 1, o.row_step);
    }
}

/* lda, ldb, ldc: the rows' distances (gemm_call); vec: A's and B's 16-byte copies (K, N, lda, ldb
 * multiples of 4, A and B 16-byte aligned), vec_c: C's float4 stores (ldc a multiple of 4, C
 * aligned); w: the blocks' work, a tile a block or (WALK) a range each, as gemm_tma's. */
template <int BM, int BN, int BK, int NT, int LANES_M, int TN, int STAGES, int A_LAYOUT,
          typename SCHEDULE, bool WALK = false>
__global__ void __launch_bounds__(NT)
    gemm_async(int M, int N, int K, float alpha, const float* __restrict__ A, int lda,
               const float* __restrict__ B, int ldb, float beta, float* __restrict__ C, int ldc,
               int vec, int vec_c, gemm_work w) {
    constexpr int A_CHUNKS = BM * BK / QUAD / NT, B_CHUNKS = BK * BN / QUAD / NT;
    static_assert(A_CHUNKS >= 1 && B_CHUNKS >= 1 && BM * BK % (QUAD * NT) == 0 &&
                      BK * BN % (QUAD * NT) == 0,
                  "whole 16-byte chunks per thread");
    static_assert(STAGES >= 2 && STAGES <= PIPELINE_MAX_STAGES, "2 to 4 stages");
    static_assert((BM / (LANES_M * MICRO)) * (BN / (32 / LANES_M * TN)) * 32 == NT,
                  "the warp tiles cover the block tile, one warp each");
    static_assert(A_LAYOUT != ASYNC_A_SWIZZLED || BM * BK % 256 == 0,
                  "a swizzled stage is whole 1 KiB blocks: 8 lines, each XOR value once");
    constexpr int A_FLOATS = async_a_stage_floats(A_LAYOUT, BM, BK);
    extern __shared__ float4 smem_raw[];
    float* const As = (float*)smem_raw;
    float* const Bs = As + STAGES * A_FLOATS;

    const int tid = threadIdx.x;
    const async_lane o = async_lane_origin(BN, LANES_M, TN, 0, tid);
    const int tile_bm = WALK ? 0 : blockIdx.y * BM, tile_bn = WALK ? 0 : blockIdx.x * BN;
    long long lo = 0, hi = w.slices;
    if constexpr (WALK) gemm_work_range(&w, (int)blockIdx.x, &lo, &hi);
    gemm_cursor<BM, BN, BK> cur = {-1, 0, 0, 0, 0, 0};

    /* The block's iteration f into stage `stage`: each thread issues A_CHUNKS + B_CHUNKS
     * copies. */
    auto fetch = [&](int stage, int f) {
        int bm = tile_bm, bn = tile_bn, k0 = f * BK;
        if constexpr (WALK) {
            cur.seek(f, lo, w);
            bm = cur.m0, bn = cur.n0, k0 = cur.k0;
            cur.step();
        }
        float* const as = As + stage * A_FLOATS;
        float* const bs = Bs + stage * BK * BN;
#pragma unroll
        for (int l = 0; l < A_CHUNKS; ++l) { /* chunk f: row f / (BK/4), k 4 (f % (BK/4)) */
            const int f = tid + l * NT, m = f / (BK / QUAD), k = f % (BK / QUAD) * QUAD;
            const int r = bm + m, c = k0 + k;
            float* dst = as + async_a_slot(A_LAYOUT, BK, m, k);
            if (vec) {
                const bool in = r < M && c < K;
                cp_async_16(dst, in ? A + (size_t)r * lda + c : A, in ? 16 : 0);
            } else {
#pragma unroll
                for (int j = 0; j < QUAD; ++j) {
                    const bool in = r < M && c + j < K;
                    cp_async_4(dst + j, in ? A + (size_t)r * lda + c + j : A, in ? 4 : 0);
                }
            }
        }
#pragma unroll
        for (int l = 0; l < B_CHUNKS; ++l) { /* chunk f: row f / (BN/4), column 4 (f % (BN/4)) */
            const int f = tid + l * NT, k = f / (BN / QUAD), n = f % (BN / QUAD) * QUAD;
            const int r = k0 + k, c = bn + n;
            float* dst = bs + k * BN + n;
            if (vec) {
                const bool in = r < K && c < N;
                cp_async_16(dst, in ? B + (size_t)r * ldb + c : B, in ? 16 : 0);
            } else {
#pragma unroll
                for (int j = 0; j < QUAD; ++j) {
                    const bool in = r < K && c + j < N;
                    cp_async_4(dst + j, in ? B + (size_t)r * ldb + c + j : B, in ? 4 : 0);
                }
            }
        }
    };

    const int n = (int)(hi - lo);
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) { /* the prologue: a group per stage, empty past the end */
        if (s < n) fetch(s, s);
        cp_async_commit();
    }
    float acc[MICRO][TN] = {};
    auto consume = [&](int t) {
        const pipeline_step p = SCHEDULE::template at<STAGES>(t, n);
        cp_async_wait(p.wait_depth);
        __syncthreads(); /* slice t everyone's; the stage to refill no one's any more */
        if (p.fetch_slice >= 0) fetch(p.fetch_stage, p.fetch_slice);
        cp_async_commit();

        gemm_slice_fma<BN, BK, A_LAYOUT, TN>(As + p.read_stage * A_FLOATS,
                                             Bs + p.read_stage * BK * BN, o, acc);
    };
    if constexpr (!WALK) {
        for (int t = 0; t < n; ++t) consume(t);
        cp_async_wait(0); /* no copy may outlive the block (the empty groups, past the end) */
        gemm_store_micro_tile(C, M, N, ldc, tile_bm + o.row0, tile_bn + o.col0, o.step_m, o.step_n,
                              acc, alpha, beta, vec_c, o.row_step);
    } else {
        gemm_segment seg;
        seg.begin(lo, n, w.slices);
        for (int t = 0; t < n; seg.next()) { /* a tile's segment a pass */
            for (; t < seg.end; ++t) consume(t);
            gemm_segment_store<BM, BN, TN>(w, seg.tile, lo, seg.whole(), o, acc, C, M, N, ldc,
                                           alpha, beta, vec_c);
            gemm_zero(acc);
        }
        cp_async_wait(0);
    }
}

#endif
