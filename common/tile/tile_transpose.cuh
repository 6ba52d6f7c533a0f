/* A tile in shared memory written by rows and read by columns: the in-shared-memory half of a
 * transpose. Chapters 02 and 03 run it with different layouts of the same tile (padding, XOR),
 * element widths and row-store widths, so that only the layout changes between variants.
 *
 * The layout is a type: Index::ROWS x Index::COLS elements of type T, and the constexpr
 * Index()(row, col) gives the slot of element (row, col); the tile holds tile_slots<Index>()
 * slots, derived from the layout itself. Every index function in common/model/layout.h can be
 * wrapped this way; the same functor runs in the kernel and in the CPU reference.
 *
 * One block of 32 x 8 threads per tile:
 *   1. rows:    each thread loads its share of the tile from global memory into registers, VEC
 *               consecutive elements of a row at a time (64 bytes at most, in turns); then,
 *               after a barrier, stores each group of VEC elements with one
 *               VEC * sizeof(T)-byte store (a row access).
 *               The layout must keep each group inside one aligned VEC-element chunk, in any
 *               order: the thread places each element at its slot's position in the chunk
 *               (a swizzle may permute elements within a vector, chapter 03).
 *   2. columns: warp w reads columns w, w+8, ...; lane = row, and writes the transposed tile
 *               to global memory, coalesced                          (a column access)
 *   3. loop:    `iters` times, every lane reads columns 0..tile_unroll-1 of its row
 *               (a shared-memory-bound loop of column accesses: what the benchmark times)
 * Stores of values loaded from global memory can count a few wavefronts more than the model
 * (this kernel's 16-byte row stores: at most 1.8%; storing each element right after its load,
 * as an earlier version did, 2-15%); stores of values computed in registers match it exactly
 * (common/calibration/README.md, "Stores in a full kernel").
 * Every column of a layout has the same bank pattern, and so has every row store (checked by
 * tile_model_of), so one model prediction covers all loads of a variant, and one all stores. */
#ifndef COURSE_TILE_TRANSPOSE_CUH
#define COURSE_TILE_TRANSPOSE_CUH

#include "device/sm_limits.cuh"
#include "host/check.h"
#include "ptx/shared.cuh"
#include "tile/tile_variant.h"

#include <string.h>

/* Independent column loads per thread per loop iteration: 32 bytes of them, 16 of 2 bytes, 8 of
 * 4, 4 of 8, 2 of 16: every width from 4 bytes up asks for 8 conflict-free wavefronts per warp
 * and iteration (2 bytes: 16, a 2-byte load being 1 wavefront too), and 16-byte loads stay
 * within the registers a thread has when TILE_BLOCKS_PER_SM blocks share an SM (32 at 8). */
__host__ __device__ constexpr unsigned tile_unroll(unsigned elem_bytes) {
    return TILE_LOOP_BYTES / elem_bytes;
}

/* Slots a layout needs: one past the largest slot it uses (at compile time). */
template <typename Index>
__host__ __device__ constexpr unsigned tile_slots() {
    unsigned most = 0;
    for (unsigned r = 0; r < Index::ROWS; ++r)
        for (unsigned c = 0; c < Index::COLS; ++c)
            if (Index()(r, c) + 1 > most) most = Index()(r, c) + 1;
    return most;
}

/* The row a lane reads in the loop: lanes cover 32 rows; with 64 rows, odd warps take 32..63. */
template <typename Index>
__host__ __device__ unsigned tile_loop_row(unsigned warp, unsigned lane) {
    return lane + 32u * (warp % (Index::ROWS / 32u));
}

/* Thread t's k-th group of VEC elements in the tile's row-major order: rows fill before
 * the next row starts, so a warp's 32 groups are consecutive. */
template <typename Index, unsigned VEC>
__host__ __device__ void tile_row_group(unsigned t, unsigned k, unsigned* row, unsigned* col) {
    unsigned e = (t + k * TILE_THREADS) * VEC;
    *row = e / Index::COLS;
    *col = e % Index::COLS;
}

/* Elements per thread in the row phase. */
template <typename Index>
__host__ __device__ constexpr unsigned tile_row_share() {
    return Index::ROWS * Index::COLS / TILE_THREADS;
}

/* The VEC elements x[0..VEC) of row r, columns c.., as one vector for their chunk: element j
 * goes to the position its slot has in the chunk. Selects, not a run-time register index
 * (which would put x in local memory). */
template <typename T, typename Index, unsigned VEC>
__device__ __forceinline__ typename smem_word<VEC * sizeof(T)>::type
tile_pack(const Index& at, unsigned r, unsigned c, const T (&x)[VEC]) {
    T packed[VEC];
#pragma unroll
    for (unsigned p = 0; p < VEC; ++p) {
        packed[p] = x[0];
#pragma unroll
        for (unsigned j = 1; j < VEC; ++j)
            if (at(r, c + j) % VEC == p) packed[p] = x[j];
    }
    typename smem_word<VEC * sizeof(T)>::type v;
    memcpy(&v, packed, sizeof v);
    return v;
}

template <typename T, typename Index, unsigned VEC>
__global__ void __launch_bounds__(TILE_THREADS, COURSE_MIN_BLOCKS(TILE_THREADS, TILE_BLOCKS_PER_SM))
    tile_transpose(const T* in, T* out, int iters, unsigned* sums) {
    __shared__ __align__(16) T tile[tile_slots<Index>()];
    const Index at;
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    const unsigned tile_addr = smem_address(tile);
    const size_t base = (size_t)blockIdx.x * Index::ROWS * Index::COLS;

    /* At most 64 bytes of a thread's share in registers at a time (no spills at 32 registers,
     * 8 blocks an SM): every tile of chapters 02 and 03 is one batch; a larger one, such as
     * chapter 04's float4[32][64], loads and stores in turns. */
    constexpr unsigned GROUPS = tile_row_share<Index>() / VEC;
    constexpr unsigned PER_BATCH = 64 / (VEC * sizeof(T)) < 1 ? 1 : 64 / (VEC * sizeof(T));
    constexpr unsigned BATCH = GROUPS < PER_BATCH ? GROUPS : PER_BATCH;
    static_assert(GROUPS % BATCH == 0, "row groups in whole batches");
#pragma unroll
    for (unsigned k0 = 0; k0 < GROUPS; k0 += BATCH) {
        T x[BATCH][VEC];
#pragma unroll
        for (unsigned k = 0; k < BATCH; ++k) {
            unsigned r, c;
            tile_row_group<Index, VEC>(threadIdx.x, k0 + k, &r, &c);
#pragma unroll
            for (unsigned j = 0; j < VEC; ++j) x[k][j] = in[base + r * Index::COLS + c + j];
        }
        __syncthreads();
#pragma unroll
        for (unsigned k = 0; k < BATCH; ++k) {
            unsigned r, c;
            tile_row_group<Index, VEC>(threadIdx.x, k0 + k, &r, &c);
            unsigned chunk = at(r, c) / VEC * VEC;
            st_shared(tile_addr + chunk * (unsigned)sizeof(T),
                      tile_pack<T, Index, VEC>(at, r, c, x[k]));
        }
    }
    __syncthreads();
    for (unsigned c = warp; c < Index::COLS; c += TILE_WARPS)
        for (unsigned r = lane; r < Index::ROWS; r += 32u)
            out[base + c * Index::ROWS + r] = tile[at(r, c)];

    /* ld_shared: volatile loads, so the compiler keeps every one in the loop. */
    const unsigned row = tile_loop_row<Index>(warp, lane);
    unsigned acc = 0;
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (unsigned j = 0; j < tile_unroll(sizeof(T)); ++j)
            acc += word_sum(ld_shared<sizeof(T)>(tile_addr + at(row, j) * (unsigned)sizeof(T)));
    }
    sums[(size_t)blockIdx.x * TILE_THREADS + threadIdx.x] = acc;
}

/* ---------------------------------------------------------------- host side of a variant */

template <typename Index>
static unsigned tile_slot(unsigned row, unsigned col) {
    return Index()(row, col);
}

template <typename T, typename Index, unsigned VEC>
static void tile_launch(int blocks, const void* in, void* out, int iters, unsigned* sums) {
    tile_transpose<T, Index, VEC><<<blocks, TILE_THREADS>>>((const T*)in, (T*)out, iters, sums);
}

/* The CPU reference: out must be the transpose of in, tile by tile; each thread's sum is iters
 * times the words of the first tile_unroll elements of its loop row. */
template <typename T, typename Index>
static size_t tile_verify(const void* in_v, const void* out_v, const unsigned* sums, int blocks,
                          int iters) {
    const T* in = (const T*)in_v;
    const T* out = (const T*)out_v;
    size_t wrong = 0;
    for (int b = 0; b < blocks; ++b) {
        size_t base = (size_t)b * Index::ROWS * Index::COLS;
        for (unsigned r = 0; r < Index::ROWS; ++r)
            for (unsigned c = 0; c < Index::COLS; ++c)
                wrong += memcmp(&out[base + c * Index::ROWS + r], &in[base + r * Index::COLS + c],
                                sizeof(T)) != 0;
        for (unsigned t = 0; t < TILE_THREADS; ++t) {
            unsigned row = tile_loop_row<Index>(t / 32u, t % 32u), want = 0;
            for (unsigned j = 0; j < tile_unroll(sizeof(T)); ++j)
                want += word_sum(in[base + row * Index::COLS + j]);
            wrong += sums[(size_t)b * TILE_THREADS + t] != want * (unsigned)iters;
        }
    }
    return wrong;
}

/* Where the kernel's row phase stores: warp w's k-th store instruction, lane i's group (for the
 * model: chunk offset in elements, and the row and column of its first element). */
template <typename Index, unsigned VEC>
static void tile_row_store(unsigned warp, unsigned k, unsigned lane, unsigned* chunk, unsigned* row,
                           unsigned* col) {
    tile_row_group<Index, VEC>(warp * 32u + lane, k, row, col);
    *chunk = Index()(*row, *col) / VEC * VEC;
}

/* The kernel for a tile of Index's layout, elements of type T, rows stored VEC at a time (VEC = 1:
 * element by element), and its host side: a tile_variant's .tile. */
template <typename T, typename Index, unsigned VEC = 1>
tile_kernel tile_kernel_of() {
    static_assert(Index::ROWS % 32 == 0 && Index::COLS >= tile_unroll(sizeof(T)), "tile shape");
    static_assert(TILE_WARPS % (Index::ROWS / 32) == 0, "loop rows");
    static_assert(Index::COLS % VEC == 0 && tile_row_share<Index>() % VEC == 0, "row groups");
    static_assert(VEC * sizeof(T) <= 16 && (VEC & (VEC - 1)) == 0, "one store of 1..16 bytes");
    tile_kernel k;
    k.elem_bytes = sizeof(T);
    k.vec = VEC;
    k.rows = Index::ROWS;
    k.cols = Index::COLS;
    k.slots = tile_slots<Index>();
    k.row_stores = tile_row_share<Index>() / VEC;
    k.slot = tile_slot<Index>;
    k.row_store = tile_row_store<Index, VEC>;
    k.kernel = (const void*)tile_transpose<T, Index, VEC>;
    k.launch = tile_launch<T, Index, VEC>;
    k.verify = tile_verify<T, Index>;
    return k;
}

#endif
