/* Chapter 08, part 3: the tensor-core kernels' tiles. A stage holds a BM x BK slice of A (K-major)
 * and a BK x BN slice of B ([k][n]) in shared memory, in one of hgemm_layout's layouts; a block
 * computes a BM x BN tile of C, the blocks taking the tiles in an order that shares operands in
 * L2; each warp a 64 x 64 part of its block's tile. */
#ifndef HGEMM_TILES_CUH
#define HGEMM_TILES_CUH

#include "hgemm_layout.h"
#include "model/hd.h"
#include "model/layout.h"

/* A shared tile of ROWS x COLS halves in LAYOUT: where element (r, c) lives, in halves (c a
 * multiple of 8 for a 16-byte chunk, which every layout keeps whole). HG_TMA is what the TMA
 * writes in its 128B swizzle mode: panels of 64 columns (a box's 128-byte rows) one after the
 * other, each Swizzle<3,3,3> on half offsets, as chapter 04 proved the mode to be; STRIDE is then
 * a panel's row. HG_SWIZZLED: Swizzle<SWIZZLE_B,3,SWIZZLE_S> on half offsets (hgemm_kernels.cuh).
 */
template <int ROWS, int COLS, int LAYOUT>
struct hg_tile {
    static constexpr int PANEL = LAYOUT == HG_TMA && COLS > 64 ? 64 : COLS;
    static constexpr int UNITS = PANEL / 8, STRIDE = PANEL + (LAYOUT == HG_PADDED ? 8 : 0);
    static constexpr int SWIZZLE_B = course_log2(UNITS) < 3 ? course_log2(UNITS) : 3;
    static constexpr int SWIZZLE_S = course_log2(UNITS) > 3 ? course_log2(UNITS) : 3;
    static constexpr int HALVES = ROWS * (COLS / PANEL) * STRIDE;
    static_assert(LAYOUT != HG_TMA || PANEL == 64, "TMA tiles: 64-half panels (128-byte rows)");
    static_assert(COLS % PANEL == 0, "whole panels");
    static __device__ __forceinline__ int at(int r, int c) {
        return LAYOUT == HG_TMA
                   ? c / PANEL * ROWS * PANEL +
                         (int)layout_swizzle((unsigned)(r * PANEL + c % PANEL), 3, 3, 3)
               : LAYOUT == HG_SWIZZLED
                   ? (int)layout_swizzle((unsigned)(r * COLS + c), SWIZZLE_B, 3, SWIZZLE_S)
                   : r * STRIDE + c;
    }
};

template <int BM, int BN, int BK, int LAYOUT>
struct hg_stage {
    typedef hg_tile<BM, BK, LAYOUT> A;
    typedef hg_tile<BK, BN, LAYOUT> B;
    static constexpr int HALVES = A::HALVES + B::HALVES;
};

template <int BM, int BN, int BK, int STAGES, int LAYOUT>
constexpr __host__ __device__ int hgemm_smem_bytes() {
    return STAGES * hg_stage<BM, BN, BK, LAYOUT>::HALVES * 2;
}

/* Block b's tile (tm, tn): the grid is one row of blocks, numbered down GROUP tile-rows at a
 * time, so that the blocks in flight share B's columns and A's rows in L2 (at 8192^3 each
 * operand is 128 MiB, twice the H200's 60 MiB L2: row-major order would read B from DRAM once per
 * tile-row). */
template <int GROUP>
static __device__ __forceinline__ void hg_tile_of(int b, int tiles_m, int tiles_n, int* tm,
                                                  int* tn) {
    const int per_group = GROUP * tiles_n, first = b / per_group * GROUP;
    const int rows = tiles_m - first < GROUP ? tiles_m - first : GROUP, k = b % per_group;
    *tm = first + k % rows;
    *tn = k / rows;
}

/* Where block tile `tile` starts, (bm, bn), in hg_tile_of's order, 8 tile-rows at a time. */
template <int BM, int BN>
static __device__ __forceinline__ void hg_tile_origin(int tile, int M, int N, int* bm, int* bn) {
    int tm, tn;
    hg_tile_of<8>(tile, (M + BM - 1) / BM, (N + BN - 1) / BN, &tm, &tn);
    *bm = tm * BM;
    *bn = tn * BN;
}

/* The tiles a thread works on: its warp's 64 x 64 at (warp_m, warp_n) in its block's tile, the
 * block's tile `tile` of C at (block_m, block_n), and the number of BK slices along K. */
struct hgemm_thread_tiles {
    int tid, lane, warp_m, warp_n, block_m, block_n, slices;
};

template <int BM, int BN, int BK>
static __device__ __forceinline__ hgemm_thread_tiles hgemm_thread_tiles_of(int M, int N, int K,
                                                                           int tile) {
    hgemm_thread_tiles p;
    p.tid = threadIdx.x;
    p.lane = p.tid % 32;
    const int warp = p.tid / 32;
    p.warp_m = warp / (BN / 64) * 64;
    p.warp_n = warp % (BN / 64) * 64;
    hg_tile_origin<BM, BN>(tile, M, N, &p.block_m, &p.block_n);
    p.slices = (K + BK - 1) / BK;
    return p;
}

#endif
