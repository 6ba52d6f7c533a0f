/* Chapter 05's kernels, numbered in the order the lesson adds ideas. Each transposes the
 * rows x cols row-major matrix `in` into the cols x rows matrix `out`, out[c][r] = in[r][c], for
 * any shape (edges are bounds-checked), for T = float or double.
 *
 *   1 copy_tile_vec       not a transpose: kernel 7's tiles, threads and 16-byte accesses, each
 *                         tile written back where it was read. The ceiling kernel 7 aims at.
 *   2 transpose_naive_rows  reads along rows (coalesced), writes down columns: every warp's
 *                         write touches 32 rows of out, 32 sectors for 128 useful bytes
 *   3 transpose_naive_cols  the other way round: coalesced writes, strided reads
 *   4-6 transpose_tile<L>  a 32 x 32 tile through shared memory, so both global sides are
 *                         coalesced; the read-back walks a column of the tile: plain (32-way
 *                         conflict), padded (row stride 33) or XOR (col ^ row), indexed by
 *                         layout_index (common/model/layout.h)
 *   7 transpose_vec       a TR x TC tile; each thread loads V x V micro-blocks with 16-byte loads
 *                         (V = 4 floats, 2 doubles), transposes them in registers, stores them
 *                         into the transposed tile with 16-byte stores, and writes whole rows
 *                         out with 16-byte stores; Swizzle<3, log2 V, log2 TR> keeps both
 *                         shared-memory sides conflict-free (chapter 04's procedure);
 *                         its blocks in write order: those in flight write along out's rows.
 *
 * Indices are 64-bit where they address the matrix (rows * cols reaches 2^32). */
#ifndef TRANSPOSE_KERNELS_CUH
#define TRANSPOSE_KERNELS_CUH

#include "model/layout.h"

#include <stddef.h>

/* 16 bytes of T, loaded and stored as one instruction (LDG.128 / STS.128 ...). */
template <typename T>
struct alignas(16) pack16 {
    T e[16 / sizeof(T)];
};

/* ---------------------------------------------------------------- kernels 2-6: 32 x 32 tiles */

/* The five scalar kernels (2-6) share their grid: SCALAR_TILE x SCALAR_TILE (32 x 32) tiles,
 * 32 x 8 threads, each thread four elements, rows ty, ty + 8, ty + 16, ty + 24 of its tile. */
enum { SCALAR_TILE = 32, SCALAR_TILE_ROWS_PER_PASS = 8 };

template <typename T>
__global__ void __launch_bounds__(SCALAR_TILE* SCALAR_TILE_ROWS_PER_PASS)
    transpose_naive_rows(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    const int c = blockIdx.x * SCALAR_TILE + threadIdx.x;
    for (int k = 0; k < SCALAR_TILE; k += SCALAR_TILE_ROWS_PER_PASS) {
        const int r = blockIdx.y * SCALAR_TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

template <typename T>
__global__ void __launch_bounds__(SCALAR_TILE* SCALAR_TILE_ROWS_PER_PASS)
    transpose_naive_cols(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    /* Lanes walk r, a row of out: the write is coalesced, the read strides by cols. */
    const int r = blockIdx.y * SCALAR_TILE + threadIdx.x;
    for (int k = 0; k < SCALAR_TILE; k += SCALAR_TILE_ROWS_PER_PASS) {
        const int c = blockIdx.x * SCALAR_TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

/* Lane tx writes tile row ty + k at column tx (a row store, conflict-free in every layout),
 * then reads tile column ty + k at row tx (a column read: the layout decides the conflicts). */
template <typename T, layout_kind L>
__global__ void __launch_bounds__(SCALAR_TILE* SCALAR_TILE_ROWS_PER_PASS)
    transpose_tile(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    __shared__ T tile[SCALAR_TILE * (SCALAR_TILE + 1)];
    const int r0 = blockIdx.y * SCALAR_TILE, c0 = blockIdx.x * SCALAR_TILE, tx = threadIdx.x,
              ty = threadIdx.y;
    for (int k = 0; k < SCALAR_TILE; k += SCALAR_TILE_ROWS_PER_PASS)
        if (r0 + ty + k < rows && c0 + tx < cols)
            tile[layout_index(ty + k, tx, L)] = in[(size_t)(r0 + ty + k) * cols + c0 + tx];
    __syncthreads();
    for (int k = 0; k < SCALAR_TILE; k += SCALAR_TILE_ROWS_PER_PASS)
        if (c0 + ty + k < cols && r0 + tx < rows)
            out[(size_t)(c0 + ty + k) * rows + r0 + tx] = tile[layout_index(tx, ty + k, L)];
}

/* ---------------------------------------------------------------- kernels 1 and 7: vectors */

/* Kernel 7's geometry, at compile time. */
template <typename T, int TR_, int TC_, int NT_>
struct vec_tile {
    static constexpr int TR = TR_, TC = TC_, NT = NT_;
    static constexpr int V = 16 / sizeof(T); /* elements per 16-byte access */
    static constexpr int UR = TR / V;        /* micro-block rows = units per row of S */
    static constexpr int UC = TC / V;        /* micro-block columns */
    static constexpr int MB = UR * UC / NT;  /* micro-blocks per thread */
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte elements");
    static_assert(UR >= 8 && UC >= 1 && MB >= 1 && MB * NT == UR * UC && NT % 32 == 0,
                  "rows of S of 8 units or more; whole micro-blocks per thread");
    static_assert(TR * TC * sizeof(T) <= 48 * 1024, "static shared memory: 48 KiB at most");
};

/* S, the transposed tile (TC rows of TR elements), under Swizzle<3, log2 V, log2 TR>:
 *   offset = row * TR + col:   row bits | col bits, the low log2 V of them inside a unit
 *   ZZZ = the unit's 3 low bits (bits log2 V ..), YYY = S's row bits log2 V .. log2 V + 2.
 * A quarter-warp's 16-byte stores write rows V*b + j for 8 consecutive b, one unit column: the
 * row bits that differ are exactly YYY, so their units land on 8 different 16-byte bank
 * groups (float, TR = 64: rows 0, 4, .., 28 -> units 0 ^ 0 .. 0 ^ 7 of their lines). Along a
 * row, 8 consecutive units stay a permutation of one 128-byte line: loads conflict-free too. */
template <typename T, int TR>
struct vec_swizzle {
    __host__ __device__ unsigned operator()(unsigned row, unsigned col) const {
        return layout_swizzle(row * TR + col, 3, course_log2(16 / sizeof(T)), course_log2(TR));
    }
};

/* The same tile unswizzled, to measure what the swizzle buys: a quarter-warp's stores then
 * hit rows 4b + j of one unit column, rows 256 bytes apart (float, TR = 64): one bank group. */
template <int TR>
struct vec_unswizzled {
    __host__ __device__ unsigned operator()(unsigned row, unsigned col) const {
        return row * TR + col;
    }
};

/* Whole 16-byte vectors only when every row of in and of out starts 16-byte aligned; then a
 * vector is either wholly inside the matrix or wholly outside. Other shapes take the scalar
 * path, the same tile element by element. */
template <typename T>
__device__ bool vectors_fit(int rows, int cols) {
    constexpr int V = 16 / sizeof(T);
    return rows % V == 0 && cols % V == 0;
}

/* Thread t's k-th micro-block (a, b): rows r0 + V*a .. + V-1, columns c0 + V*b .. + V-1 of the
 * input. Consecutive threads take consecutive b: a warp's loads run along input rows. (Host and
 * device: the kernel's and the pictures' one definition.) */
template <typename G>
__host__ __device__ inline void micro_block_of(int t, int k, int* a, int* b) {
    const int m = t + k * G::NT;
    *a = m / G::UC;
    *b = m % G::UC;
}

/* The calling thread's k-th micro-block. */
template <typename G>
__device__ void micro_block(int k, int* a, int* b) {
    micro_block_of<G>(threadIdx.x, k, a, b);
}

/* Where column j of micro-block (a, b) goes, transposed: row V*b + j of S, columns V*a .. +V-1. */
template <typename G>
__host__ __device__ inline void transposed_row_of(int a, int b, int j, int* row, int* col) {
    *row = G::V * b + j;
    *col = G::V * a;
}

/* Thread t's k-th read of S in phase 2: unit q = t + k * NT in row order, row q / UR, columns
 * V * (q % UR) .. + V-1. */
template <typename G>
__host__ __device__ inline void s_unit_of(int t, int k, int* row, int* col) {
    const int q = t + k * G::NT;
    *row = q / G::UR;
    *col = G::V * (q % G::UR);
}

/* Calls f(k, i, r, c) for each 16-byte vector the thread moves in the tile at (r0, c0): row i of
 * its k-th micro-block, input row r, columns c .. c + V-1. */
template <typename G, typename F>
__device__ void for_each_vector(int r0, int c0, F f) {
#pragma unroll
    for (int k = 0; k < G::MB; ++k) {
        int a, b;
        micro_block<G>(k, &a, &b);
#pragma unroll
        for (int i = 0; i < G::V; ++i) f(k, i, r0 + G::V * a + i, c0 + G::V * b);
    }
}

/* Phase 1a: the thread's micro-blocks of the tile at (r0, c0), every load issued before any is
 * used (MB * V loads of 16 bytes in flight per thread). Outside the matrix: 0. */
template <typename G, typename T>
__device__ void load_micro_blocks(const T* in, int rows, int cols, int r0, int c0,
                                  pack16<T> (&v)[G::MB][G::V]) {
    for_each_vector<G>(r0, c0, [&](int k, int i, int r, int c) {
        v[k][i] = r < rows && c < cols
                      ? *reinterpret_cast<const pack16<T>*>(in + (size_t)r * cols + c)
                      : pack16<T>{};
    });
}

/* Phase 1b: each micro-block transposed in registers, its column j stored as row V*b + j of S. */
template <typename G, typename Slot, typename T>
__device__ void store_transposed(T* s, const pack16<T> (&v)[G::MB][G::V]) {
    const Slot slot;
#pragma unroll
    for (int k = 0; k < G::MB; ++k) {
        int a, b;
        micro_block<G>(k, &a, &b);
#pragma unroll
        for (int j = 0; j < G::V; ++j) {
            pack16<T> t;
#pragma unroll
            for (int i = 0; i < G::V; ++i) t.e[i] = v[k][i].e[j];
            int row, col;
            transposed_row_of<G>(a, b, j, &row, &col);
            *reinterpret_cast<pack16<T>*>(s + slot(row, col)) = t;
        }
    }
}

/* Phase 2: S row by row, unit q = t + k * NT (s_unit_of: row q / UR, unit q % UR) to out row c0 +
 * row, columns r0 + V * unit .. + V-1: a warp's stores run along out's rows. */
template <typename G, typename Slot, typename T>
__device__ void write_rows(const T* s, T* out, int rows, int cols, int r0, int c0) {
    const Slot slot;
#pragma unroll
    for (int k = 0; k < G::MB * G::V; ++k) {
        int row, col;
        s_unit_of<G>(threadIdx.x, k, &row, &col);
        if (c0 + row < cols && r0 + col < rows)
            *reinterpret_cast<pack16<T>*>(out + (size_t)(c0 + row) * rows + r0 + col) =
                *reinterpret_cast<const pack16<T>*>(s + slot(row, col));
    }
}

/* A tile element by element through S (shapes whose rows are not 16-byte aligned). */
template <typename G, typename Slot, typename T>
__device__ void scalar_tile(const T* in, T* out, int rows, int cols, int r0, int c0, T* s) {
    const Slot slot;
    for (int e = threadIdx.x; e < G::TR * G::TC; e += G::NT) {
        const int r = e / G::TC, c = e % G::TC;
        if (r0 + r < rows && c0 + c < cols) s[slot(c, r)] = in[(size_t)(r0 + r) * cols + c0 + c];
    }
    __syncthreads();
    for (int e = threadIdx.x; e < G::TR * G::TC; e += G::NT) {
        const int row = e / G::TR, col = e % G::TR;
        if (c0 + row < cols && r0 + col < rows)
            out[(size_t)(c0 + row) * rows + r0 + col] = s[slot(row, col)];
    }
}

template <typename T, int TR, int TC, int NT>
__global__ void __launch_bounds__(NT)
    copy_tile_vec(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    typedef vec_tile<T, TR, TC, NT> G;
    const int r0 = blockIdx.y * TR, c0 = blockIdx.x * TC;
    if (vectors_fit<T>(rows, cols)) {
        pack16<T> v[G::MB][G::V];
        load_micro_blocks<G>(in, rows, cols, r0, c0, v);
        for_each_vector<G>(r0, c0, [&](int k, int i, int r, int c) {
            if (r < rows && c < cols)
                *reinterpret_cast<pack16<T>*>(out + (size_t)r * cols + c) = v[k][i];
        });
    } else {
        for (int e = threadIdx.x; e < TR * TC; e += NT) {
            const int r = r0 + e / TC, c = c0 + e % TC;
            if (r < rows && c < cols) out[(size_t)r * cols + c] = in[(size_t)r * cols + c];
        }
    }
}

/* Which tile block (x, y) moves. Blocks with neighbouring x run at the same time.
 *   READ_ORDER   x walks along the input's rows: the blocks in flight read long runs of the same
 *                input rows, and each writes its TC output rows somewhere else.
 *   WRITE_ORDER  x walks down the input's columns: the blocks in flight write long runs of the
 *                same output rows, and read pieces of many input rows.
 * The bytes are the same; at 16384^2 float the H200 runs WRITE_ORDER 2.8 points faster
 * (README, "The block order"). */
enum block_order { READ_ORDER, WRITE_ORDER };

__host__ __device__ inline dim3 tile_grid(block_order order, int rows, int cols, int tr, int tc) {
    const unsigned tile_rows = (unsigned)((rows + tr - 1) / tr),
                   tile_cols = (unsigned)((cols + tc - 1) / tc);
    return order == WRITE_ORDER ? dim3(tile_rows, tile_cols) : dim3(tile_cols, tile_rows);
}

/* Kernel 7: one tile per block, the blocks in ORDER (tile_grid). */
template <typename T, int TR, int TC, int NT, typename Slot, block_order ORDER = WRITE_ORDER>
__global__ void __launch_bounds__(NT)
    transpose_vec(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    typedef vec_tile<T, TR, TC, NT> G;
    __shared__ pack16<T> units[TR * TC / G::V];
    T* const s = units[0].e;
    const int r0 = (ORDER == WRITE_ORDER ? blockIdx.x : blockIdx.y) * TR,
              c0 = (ORDER == WRITE_ORDER ? blockIdx.y : blockIdx.x) * TC;
    if (!vectors_fit<T>(rows, cols)) {
        scalar_tile<G, Slot>(in, out, rows, cols, r0, c0, s);
        return;
    }
    pack16<T> v[G::MB][G::V];
    load_micro_blocks<G>(in, rows, cols, r0, c0, v);
    store_transposed<G, Slot>(s, v);
    __syncthreads();
    write_rows<G, Slot>(s, out, rows, cols, r0, c0);
}

#endif
