/* Chapter 08: which part of a GEMM each block computes, for the cp.async and TMA SGEMMs.
 *
 * A GEMM's work is a line of iterations: its BM x BN tiles of C in row-major order, each
 * `slices` K-slices long, so iteration i is slice i % slices of tile i / slices. A launch gives
 * each block a contiguous range of that line:
 *
 *     blocks [0, whole)                one tile each, all its slices       (data-parallel)
 *     blocks whole + j, j < sk_blocks  [lo_j, lo_(j+1)) of what is left,   (stream-K)
 *                                      lo_j = whole slices + floor(j sk_iters / sk_blocks)
 *
 *   iterations: |tile 0 ....|tile 1 ....| ... |tile w ....|tile w+1 ..|tile w+2 ..|
 *   blocks:     |  block 0  |  block 1  | ... | blk w |  blk w+1  | blk w+2 |...
 *
 * With sk_blocks = 0 it is the classic grid, a tile a block. Stream-K (Osama et al., 2023) lets
 * the last tiles be shared so that every SM gets the same number of iterations however the tiles
 * fall against the SMs. A block stores a tile it covered whole into C; a part of one goes to
 * `partial`, the block's first tile's part to slot 2 j, its last tile's to slot 2 j + 1 (BM x BN
 * floats each, dense), and a fixup kernel sums a shared tile's parts into C (sgemm_auto.cu). */
#ifndef GEMM_WORK_H
#define GEMM_WORK_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int tiles_n;        /* tiles along N */
    int slices;         /* K-slices of a tile, 1 or more (a K = 0 tile is one slice of zeros) */
    int whole;          /* blocks that compute one tile each */
    int sk_blocks;      /* blocks after them that share the rest */
    long long sk_iters; /* the iterations they share: (tiles - whole) slices */
    float* partial;     /* 2 sk_blocks BM x BN floats where sk_blocks > 0 */
} gemm_work;

/* The classic grid: tiles_m x tiles_n tiles, a block each. */
COURSE_HD_INLINE gemm_work gemm_work_tiles(int tiles_m, int tiles_n, int slices) {
    gemm_work w = {tiles_n, slices > 0 ? slices : 1, tiles_m * tiles_n, 0, 0, 0};
    return w;
}

COURSE_HD_INLINE int gemm_work_blocks(const gemm_work* w) {
    return w->whole + w->sk_blocks;
}

/* Block b's iterations [*lo, *hi). */
COURSE_HD_INLINE void gemm_work_range(const gemm_work* w, int b, long long* lo, long long* hi) {
    if (b < w->whole) {
        *lo = (long long)b * w->slices;
        *hi = *lo + w->slices;
        return;
    }
    const long long base = (long long)w->whole * w->slices, j = b - w->whole;
    *lo = base + j * w->sk_iters / w->sk_blocks;
    *hi = base + (j + 1) * w->sk_iters / w->sk_blocks;
}

/* The stream-K block whose range holds iteration i (i past the data-parallel ones): the largest
 * j with floor(j sk_iters / sk_blocks) <= i - whole slices. */
COURSE_HD_INLINE int gemm_work_block_of(const gemm_work* w, long long i) {
    const long long r = i - (long long)w->whole * w->slices;
    return w->whole + (int)(((r + 1) * w->sk_blocks - 1) / w->sk_iters);
}

/* Where block b (a stream-K one) leaves its part of `tile`: slot 2 j for its first tile, 2 j + 1
 * for its last. A tile is b's first unless b's range began before it. */
COURSE_HD_INLINE int gemm_work_slot(const gemm_work* w, int b, long long tile) {
    long long lo = 0, hi = 0;
    gemm_work_range(w, b, &lo, &hi);
    return 2 * (b - w->whole) + (lo < tile * w->slices ? 1 : 0);
}

#ifdef __cplusplus
}
#endif

#endif
