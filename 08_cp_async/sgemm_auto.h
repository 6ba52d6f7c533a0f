/* Chapter 08, part 4: one SGEMM for every shape. sgemm_auto(call) computes C = alpha A B + beta C
 * like a library GEMM (row-major, any M, N, K >= 0, any leading dimension and base) and picks how
 * from the shape:
 *   - the tile (128 x 128 on 256 or 128 threads, or 128 x 256) and the split (data-parallel or
 *     stream-K) from a table of times measured on a GPU (sgemm_tune re-measures it on yours): at
 *     the table's nearest shape, each choice's time scaled by its busiest SM's work here against
 *     there;
 *   - the feed: the TMA where the GPU has one (sm_90), else cp.async;
 *   - the blocks: the tiles against the SMs (gemm_work.h), stream-K's shared tiles summed by a
 *     fixup kernel;
 *   - an operand whose rows the TMA cannot map (a leading dimension not a multiple of 4, a base
 *     off 16 bytes) copied first into an aligned, zero-padded workspace;
 *   - the edges: up to SGEMM_EDGE_MAX rows and columns past the last whole tile (1031 = 8 x 128
 *     + 7) taken from the tiles and computed by a small kernel beside them on a second stream,
 *     where a tile of 128 would do 128 rows' work for 7.
 * The plan is plain C, computed on the host (sgemm_plan.c) and tested on the CPU; sgemm_auto.cu
 * runs it. */
#ifndef SGEMM_AUTO_H
#define SGEMM_AUTO_H

#include "gemm_work.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tiles and their threads: 128 x 128 on 256 (chapter 06's geometry), 128 x 256 on 256, and
 * 128 x 128 on 128 (cuBLAS's geometry, part 2's best fixed kernel tma_wide_3's). */
typedef enum {
    SGEMM_TILE_128x128 = 0,
    SGEMM_TILE_128x256 = 1,
    SGEMM_TILE_128x128_128T = 2,
    SGEMM_TILES = 3
} sgemm_tile;

/* Every tile is 128 rows; its columns: */
COURSE_HD_INLINE int sgemm_tile_bn(sgemm_tile t) {
    return t == SGEMM_TILE_128x256 ? 256 : 128;
}
typedef enum { SGEMM_DATA_PARALLEL = 0, SGEMM_STREAM_K = 1 } sgemm_split;

typedef struct {
    sgemm_tile tile;
    sgemm_split split;
} sgemm_choice;

/* "128x128", "128x256", "128x128_128t"; "dp", "sk": the table's and the CSV's words. */
const char* sgemm_tile_name(sgemm_tile t);
const char* sgemm_split_name(sgemm_split s);

/* Rows the TMA can map and 16-byte copies can read: a stride of whole 16 bytes from a 16-byte
 * aligned base (ld in floats). */
COURSE_HD_INLINE int sgemm_rows_aligned(uintptr_t base, int ld) {
    return ld % 4 == 0 && base % 16 == 0;
}

/* The table: at each shape of a grid, every choice's measured time and the iterations of its
 * busiest SM (sgemm_plan.busiest) on the GPU that measured it. */
typedef struct {
    int M, N, K;
    sgemm_choice choice;
    double ms;
    long long busiest;
} sgemm_table_row;

enum { SGEMM_TABLE_MAX = 4096 };

/* The edges: a remainder of M past whole 128-row tiles, or of N past whole tiles, of at most this
 * many is peeled off the tiles. The edge kernel works on patches of SGEMM_EDGE_ROWS x
 * SGEMM_EDGE_COLS outputs over chunks of SGEMM_EDGE_KC of K, the chunks of a patch summed in
 * order by the last block to finish one. */
enum { SGEMM_EDGE_MAX = 32, SGEMM_EDGE_ROWS = 8, SGEMM_EDGE_COLS = 32, SGEMM_EDGE_KC = 256 };
typedef struct {
    int n;
    sgemm_table_row row[SGEMM_TABLE_MAX];
    char source[256]; /* where it came from, for the program to say */
} sgemm_table;

/* The table built in: results/h200_sgemm_table.csv's text (CMake writes it into the build). */
extern const char sgemm_table_h200[];

/* Reads a table from the text of sgemm_tune's CSV. Returns 0, or -1 with the reason in why. */
int sgemm_table_parse(const char* text, sgemm_table* t, char* why, size_t why_len);

/* Packing beside the tiles (pack_beside.cuh): K in chunks of SGEMM_PACK_CHUNK_K, a counter each,
 * at most SGEMM_PACK_MAX_CHUNKS. */
enum { SGEMM_PACK_CHUNK_K = 256, SGEMM_PACK_MAX_CHUNKS = 1024 };

/* What the plan needs of the GPU: its SMs, whether the TMA feeds the kernels, and how many
 * blocks of each tile's kernel fit on an SM (the occupancy API's), by split: the data-parallel
 * kernel (a tile a block) and the stream-K one (walking ranges) are two compilations. */
typedef struct {
    int sms, tma;
    int blocks_per_sm[SGEMM_TILES][2];
    int pack_beside; /* the 128 x 256 tiles' kernel that packs beside them fits as theirs does */
    int pack_along[SGEMM_TILES]; /* the blocks of a packing grid that can run alongside the
                                  * tile's stream-K walk, an SM's beside its walking blocks; 0 if
                                  * none */
} sgemm_gpu;

/* The choice for M x N x K on g. At the table's shape nearest to it (by the sum of |log2|
 * distances of the three sides; the first on a tie), each choice whose tile fits on g is
 * predicted to take its time there times busiest here / busiest there: this shape's waves on
 * these SMs, at the speed an iteration was measured to go. The fastest wins, stream-K over a
 * data-parallel plan of the same tile up to 1% slower, since it holds better where the tiles
 * fall worse against the SMs. */
sgemm_choice sgemm_table_choice(const sgemm_table* t, const sgemm_gpu* g, int M, int N, int K);

/* A call's plan. */
typedef struct {
    int nothing;    /* M or N is 0: no work */
    int scale_only; /* K is 0: C = beta C */
    sgemm_choice choice;
    int tma;            /* 1: the TMA feeds the kernel; 0: cp.async */
    int pack_a, pack_b; /* the operand is copied into an aligned workspace first */
    int lda, ldb;       /* what the kernel reads (packed: the row rounded up to 4 floats) */
    int vec;            /* cp.async: 16-byte copies (after any packing, always) */
    int bm, bn, bk;
    int m0, n0;                    /* the tiles cover rows [0, m0) and columns [0, n0) of C ... */
    int edge_rows, edge_cols;      /* ... the edge kernel rows [m0, M) whole and columns [n0, N) of
                                    * rows [0, m0): the remainders of up to SGEMM_EDGE_MAX peeled */
    int edge_patches, edge_chunks; /* its patches (both strips) and K's chunks a patch */
    int tiles_m, tiles_n, tiles;   /* 0 tiles: the edge kernel does it all */
    int slots;                     /* blocks resident at once: SMs x blocks per SM */
    gemm_work work;                /* partial: set by the caller, in the workspace */
    int sk_tiles;                  /* tiles past work.whole that stream-K blocks share */
    long long busiest; /* the iterations of the busiest SM: what the call's time follows */
    double fill;       /* the average SM's iterations over the busiest's: 1 when balanced */
    int pack_spare;    /* > 0: packed beside the tiles by the wave's pack_spare blocks left over */
    int pack_along;    /* > 0: packed alongside the stream-K walk by a grid of that many blocks,
                        * the walk's first wave of whole tiles walking K from 0 together */
    int pack_chunks;   /* ... (either way) K's chunks of SGEMM_PACK_CHUNK_K */
    int pack_lead;     /* ... the first of them packed by every block before the tiles start */
    size_t pack_a_bytes, pack_b_bytes, partial_bytes;
    size_t edge_bytes; /* the edge patches' chunk sums, where K has more than one chunk */
} sgemm_plan;

/* The edge kernel's strips as patches: the rows strip (edge_rows x N) first, then the columns
 * strip (m0 x edge_cols), each in patches of SGEMM_EDGE_ROWS of the strip's short side by
 * SGEMM_EDGE_COLS of its long side. */
COURSE_HD_INLINE int sgemm_edge_patches_of(int short_side, int long_side) {
    return short_side > 0 && long_side > 0
               ? (short_side + SGEMM_EDGE_ROWS - 1) / SGEMM_EDGE_ROWS *
                     ((long_side + SGEMM_EDGE_COLS - 1) / SGEMM_EDGE_COLS)
               : 0;
}

/* The plan for M x N x K with these leading dimensions and bases, on g, for a choice. */
sgemm_plan sgemm_plan_for(int M, int N, int K, int lda, int ldb, uintptr_t a, uintptr_t b,
                          const sgemm_gpu* g, sgemm_choice choice);

/* One line on a plan ("128x128 sk, TMA, 1089 tiles on 264 slots: 528 whole + 561 shared by 264
 * blocks, A packed"). */
void sgemm_plan_describe(const sgemm_plan* p, char* out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
