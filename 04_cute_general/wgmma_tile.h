/* One warpgroup's wgmma on tiles the TMA wrote (wgmma_tile.cu), the descriptors given by the
 * host: what 04_cute_general.wgmma and the exercise's GPU part (part 3) both run. D (64 x 64,
 * fp32) = A (64 x 64) B (64 x 64) in four wgmma.m64n64k16, fp16 integers in -2..2 so that every
 * sum is exact. K-major: A stored as M x K and B as N x K (rows along K); MN-major: A as K x M and
 * B as K x N (rows along M and N). The TMA writes each in `map_mode`, boxes one atom row wide and
 * 64 rows deep (wgmma_tma_strides), A's tile from a 1 KiB boundary (+ shift), B's
 * WGMMA_TILE_BYTES after it. Built for sm_90a alone: wgmma exists nowhere else. */
#ifndef WGMMA_TILE_H
#define WGMMA_TILE_H

#include "host/device.h"
#include "model/wgmma_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { WGMMA_TILE_BYTES = 64 * 64 * 2 };

typedef struct {
    int mn_major;        /* 0: both operands K-major; 1: both MN-major */
    wgmma_mode map_mode; /* the TMA's mode */
    unsigned shift;      /* the tiles' start past the 1 KiB boundary */
    /* slice s's (16 of K) descriptors of A ([s][0]) and B ([s][1]), their start fields counted
     * from the 1 KiB boundary (the kernel adds the boundary's address) */
    unsigned long long desc[4][2];
} wgmma_tile_read;

/* Where slice s of operand op (0: A, 1: B) starts, in bytes from the 1 KiB boundary, the tiles
 * written in `mode` and not shifted: K-major, 32 s bytes along K (into the atom row, or the next
 * box); MN-major, 16 s rows of the box on. */
unsigned wgmma_tile_slice_start(int mn_major, wgmma_mode mode, int op, int s);

/* Opens the problem on device d: EXIT_OK, or EXIT_SKIPPED with the reason printed (a GPU other
 * than sm_90, or no tensor-map encoder in the driver). */
int wgmma_tile_open(const course_device* d, const char* what);

/* The product read as r says: how many of its 4096 elements are off the exact one (NaN counts);
 * all of them, not run, where a descriptor would read past the block's shared memory. */
int wgmma_tile_elements_off(const wgmma_tile_read* r);

void wgmma_tile_close(void);

#ifdef __cplusplus
}
#endif

#endif
