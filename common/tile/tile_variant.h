/* A variant of a tile chapter (02 to 04): one record each, a course_variant first, then the tile
 * kernel it runs, the variant its speedup is measured against, and what the run finds. A
 * chapter writes its table with named initialisers; tile_kernel_of (tile_transpose.cuh) builds
 * the kernel's part from the layout's type:
 *
 *     static tile_variant VARIANTS[] = {
 *         {.v = {.name = "w4_pad1", .number = 2, .description = "row stride 33"},
 *          .against = "w4_pad0",
 *          .tile = tile_kernel_of<unsigned, padded_tile<32, 1>>()},
 *     };
 *
 * v.description is the layout (the CSV's layout column: no commas). v.kernel and v.needs come
 * from .tile, and the model from the layout, when tile_main starts (tile_prepare); the
 * measurement and the speedups from the run. */
#ifndef COURSE_TILE_VARIANT_H
#define COURSE_TILE_VARIANT_H

#include "host/bench.h"
#include "host/variant.h"

#include <stddef.h>

/* Every tile kernel's block: 32 x 8 threads. */
enum {
    TILE_THREADS = 256, /* 32 x 8 */
    TILE_WARPS = 8,
    TILE_BLOCKS_PER_SM = 8, /* __launch_bounds__' minimum, so each thread may use 32 registers:
                             * on a 64-warp SM (sm_80, sm_90) 8 blocks fill it; the benchmark
                             * launches as many as the occupancy API says fit (tile_bench) */
    TILE_LOOP_BYTES = 32    /* bytes each thread loads per loop iteration */
};

/* One instantiation of tile_transpose: the layout of its tile, how its rows are stored, and
 * its host side (launch, CPU reference). */
typedef struct {
    unsigned elem_bytes, rows, cols, slots;
    unsigned vec;        /* elements per row store: its width is vec * elem_bytes */
    unsigned row_stores; /* store instructions per thread in the row phase */
    unsigned (*slot)(unsigned row, unsigned col); /* the layout's index, on the CPU */
    /* The kernel's row phase: lane's group in warp's k-th store (chunk in elements, and the
     * row and column of the group's first element). */
    void (*row_store)(unsigned warp, unsigned k, unsigned lane, unsigned* chunk, unsigned* row,
                      unsigned* col);
    const void* kernel;
    void (*launch)(int blocks, const void* in, void* out, int iters, unsigned* sums);
    /* Compares out and sums with the CPU's transpose and sums; returns the wrong elements. */
    size_t (*verify)(const void* in, const void* out, const unsigned* sums, int blocks, int iters);
} tile_kernel;

/* The model's wavefronts per warp instruction: the column access (lane = row) that the loads
 * make, and the row stores (lane = the next group of vec elements of a row), with their ideal
 * counts. */
typedef struct {
    int ld, ld_ideal, st, st_ideal;
} tile_model;

typedef struct {
    bench_result t;
    int blocks, launches;
    double ns_per_load; /* per warp-wide column load on one SM: median time / loads per SM */
    size_t wrong;       /* wrong elements in the benchmark's own output */
} tile_measurement;

typedef struct {
    course_variant v;
    const char* against; /* the variant its speedup is measured against (the CSV's baseline) */
    tile_kernel tile;
    tile_model model;
    tile_measurement m;
    double model_speedup; /* against's column-load wavefronts / these */
    double speedup;       /* against's median time / this median time */
} tile_variant;

/* The variant called name in r[0..n), or NULL. */
static inline const tile_variant* tile_find(const tile_variant* r, int n, const char* name) {
    course_variants t = course_variants_of((void*)r, sizeof *r, n);
    int i = course_find_variant(&t, name);
    return i < 0 ? NULL : &r[i];
}

#endif
