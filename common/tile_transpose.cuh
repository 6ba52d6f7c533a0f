/* A tile in shared memory written by rows and read by columns: the in-shared-memory half of a
 * transpose. Chapters 02 and 03 run it with different layouts of the same tile (padding, XOR)
 * and element widths, so that only the layout changes between variants.
 *
 * The layout is a type: Index::ROWS x Index::COLS elements of type T stored in Index::SLOTS
 * slots, and Index()(row, col) gives the slot of element (row, col). Every index function in
 * common/layout.h can be wrapped this way; the same functor runs in the kernel and in the CPU
 * reference.
 *
 * One block of 32 x 8 threads per tile:
 *   1. rows:    warp w writes rows w, w+8, ...; lane = column        (a row access)
 *   2. columns: warp w reads columns w, w+8, ...; lane = row, and writes the transposed tile
 *               to global memory, coalesced                          (a column access)
 *   3. loop:    `reps` times, every lane reads columns 0..tile_unroll-1 of its row
 *               (a shared-memory-bound loop of column accesses: what the benchmark times)
 * Every column of a layout has the same bank pattern (tested in the chapters), so one model
 * prediction covers all loads of a variant, and one covers all stores. */
#ifndef COURSE_TILE_TRANSPOSE_CUH
#define COURSE_TILE_TRANSPOSE_CUH

#include "check.h"
#include "smem_access.cuh"
#include "tile_bench.h"

#include <string.h>

enum {
    TILE_THREADS = 256, /* 32 x 8 */
    TILE_WARPS = 8,
    TILE_BLOCKS_PER_SM = 8, /* 64 warps per SM: each thread may use 32 registers */
    TILE_LOOP_BYTES = 32    /* bytes each thread loads per loop iteration */
};

/* Independent column loads per thread per loop iteration: 8 of 4 bytes, 4 of 8, 2 of 16. Every
 * width then asks for 8 conflict-free wavefronts per warp and iteration, and 16-byte loads stay
 * within the 32 registers a thread has at 64 warps per SM. */
__host__ __device__ constexpr unsigned tile_unroll(unsigned elem_bytes) {
    return TILE_LOOP_BYTES / elem_bytes;
}

/* The row a lane reads in the loop: lanes cover 32 rows; with 64 rows, odd warps take 32..63. */
template <typename Index>
__host__ __device__ unsigned tile_loop_row(unsigned warp, unsigned lane) {
    return lane + 32u * (warp % (Index::ROWS / 32u));
}

template <typename T, typename Index>
__global__ void __launch_bounds__(TILE_THREADS, TILE_BLOCKS_PER_SM)
    tile_transpose(const T* in, T* out, int reps, unsigned* sums) {
    __shared__ T tile[Index::SLOTS];
    const Index at;
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    const size_t base = (size_t)blockIdx.x * Index::ROWS * Index::COLS;

    for (unsigned r = warp; r < Index::ROWS; r += TILE_WARPS)
        for (unsigned c = lane; c < Index::COLS; c += 32u)
            tile[at(r, c)] = in[base + r * Index::COLS + c];
    __syncthreads();
    for (unsigned c = warp; c < Index::COLS; c += TILE_WARPS)
        for (unsigned r = lane; r < Index::ROWS; r += 32u)
            out[base + c * Index::ROWS + r] = tile[at(r, c)];

    /* ld_shared: volatile loads, so the compiler keeps every one in the loop. */
    const unsigned row = tile_loop_row<Index>(warp, lane), tile_addr = smem_address(tile);
    unsigned acc = 0;
#pragma unroll 1
    for (int it = 0; it < reps; ++it) {
#pragma unroll
        for (unsigned j = 0; j < tile_unroll(sizeof(T)); ++j)
            acc += word_sum(ld_shared<sizeof(T)>(tile_addr + at(row, j) * (unsigned)sizeof(T)));
    }
    sums[(size_t)blockIdx.x * TILE_THREADS + threadIdx.x] = acc;
}

/* ---------------------------------------------------------------- host side of a variant */

template <typename T, typename Index>
static unsigned tile_slot(unsigned row, unsigned col) {
    return Index()(row, col);
}

template <typename T, typename Index>
static void tile_launch(int blocks, const void* in, void* out, int reps, unsigned* sums) {
    tile_transpose<T, Index><<<blocks, TILE_THREADS>>>((const T*)in, (T*)out, reps, sums);
}

/* The CPU reference: out must be the transpose of in, tile by tile; each thread's sum is reps
 * times the words of the first tile_unroll elements of its loop row. */
template <typename T, typename Index>
static size_t tile_verify(const void* in_v, const void* out_v, const unsigned* sums, int blocks,
                          int reps) {
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
            wrong += sums[(size_t)b * TILE_THREADS + t] != want * (unsigned)reps;
        }
    }
    return wrong;
}

template <typename T, typename Index>
tile_variant tile_variant_of(const char* name, const char* layout) {
    static_assert(Index::ROWS % 32 == 0 && Index::COLS >= tile_unroll(sizeof(T)), "tile shape");
    static_assert(TILE_WARPS % (Index::ROWS / 32) == 0, "loop rows");
    tile_variant v;
    v.name = name;
    v.layout = layout;
    v.elem_bytes = sizeof(T);
    v.rows = Index::ROWS;
    v.cols = Index::COLS;
    v.slots = Index::SLOTS;
    v.slot = tile_slot<T, Index>;
    v.kernel = (const void*)tile_transpose<T, Index>;
    v.launch = tile_launch<T, Index>;
    v.verify = tile_verify<T, Index>;
    return v;
}

#endif
