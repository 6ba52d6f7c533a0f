/* Chapter 08, part 3: what the tensor-core kernels and their host side (the variant table, the
 * bank model in tensor_model.c) share: the tiles' layouts in shared memory, the TMA's slice depth,
 * and where hgemm_tma_persistent stages C for the TMA's stores. */
#ifndef HGEMM_LAYOUT_H
#define HGEMM_LAYOUT_H

#include "model/hd.h"
#include "model/layout.h"
#include "model/wgmma_desc.h"

/* A stage's tiles: rows as they come, padded by 8 halves (16 bytes), swizzled (chapter 04's
 * ldmatrix rule), or as the TMA writes them in its 128B mode (hgemm_tiles.cuh, hg_tile); the
 * wgmma kernels' in each mode. */
enum hgemm_layout { HG_PLAIN, HG_PADDED, HG_SWIZZLED, HG_TMA, HG_WGMMA };

/* The wgmma kernels' layouts: HG_WGMMA + the mode (model/wgmma_desc.h's wgmma_mode: none, 128B,
 * 64B, 32B), the TMA's boxes one atom wide. No ldmatrix reads them: the tensor cores do. */
COURSE_HD_INLINE int hgemm_is_wgmma(int layout) {
    return layout >= HG_WGMMA;
}

/* The layout's name in the lesson's tables and the CSV. */
COURSE_HD_INLINE const char* hgemm_layout_name(int layout) {
    return layout == HG_PLAIN       ? "plain"
           : layout == HG_PADDED    ? "padded"
           : layout == HG_SWIZZLED  ? "swizzled"
           : layout == HG_TMA       ? "tma"
           : layout == HG_WGMMA     ? "wgmma_none"
           : layout == HG_WGMMA + 1 ? "wgmma_128B"
           : layout == HG_WGMMA + 2 ? "wgmma_64B"
                                    : "wgmma_32B";
}

/* The TMA kernels' slice: 64 halves along k, one 128-byte box row. */
enum { HG_TMA_BK = 64 };

/* The TMA copies that fill one slice of a BM x BN block tile: hgemm_tma's one box of A and a
 * 64-column panel of B each; a wgmma kernel's boxes one atom row (S bytes) wide, 128 / S of A
 * and 2 BN / S of B (BK = 64 halves: 128 bytes of a row). -1: the tiles come by cp.async. */
COURSE_HD_INLINE int hgemm_tma_copies_per_slice(int layout, int bn) {
    if (layout == HG_TMA) return 1 + bn / 64;
    if (!hgemm_is_wgmma(layout)) return -1;
    const int s = (int)wgmma_span((wgmma_mode)(layout - HG_WGMMA));
    return 128 / s + 2 * bn / s;
}

/* C's staging (hgemm_tma_persistent): a warp's 64 x 64 floats leave in chunks of 16 rows, each
 * two TMA boxes of 16 x 32 floats (128-byte rows, the 128B swizzle); two buffers a warp, so a
 * chunk is written while the copy engine still reads the one before. */
enum { HG_C_ROWS = 16, HG_C_BOX = 32, HG_C_CHUNK = HG_C_ROWS * 64, HG_C_BUFFERS = 2 };

/* Where float (r, c) of a chunk sits in its staging buffer, in floats: box c / 32, in the 128B
 * swizzle, which on 4-byte elements is Swizzle<3,2,3> (16-byte units XORed with the row's low 3
 * bits); swizzled 0: the box's rows plain, what the model compares it with. */
COURSE_HD_INLINE unsigned hgemm_c_staging_offset(unsigned r, unsigned c, int swizzled) {
    const unsigned in_box = r * HG_C_BOX + c % HG_C_BOX;
    return c / HG_C_BOX * (HG_C_ROWS * HG_C_BOX) +
           (swizzled ? layout_swizzle(in_box, 3, 2, 3) : in_box);
}

/* The column of the float2 that lane writes in the warp's j-th store of a chunk row (j = 0..7):
 * lane (g, q) = (lane / 4, lane % 4) holds columns 8 j + 2 q of row g (mma_d_element), and odd
 * rows take the 8-column blocks in the order j ^ 2. Why, for one store: 64-bit stores go 16 lanes
 * at a time, and lanes 0..15 are rows g = 0..3, each writing 16-byte units 2 j and 2 j + 1 of its
 * row (j mod 4, in box j / 4: boxes lie 2 KiB apart, on the same banks). Rows of 128 bytes start at
 * bank 0: unswizzled, the 4 rows hit the same 2 units (4-way, 8 wavefronts for 256 bytes). The
 * swizzle XORs the unit with g: (2 j + b) ^ g for g = 0..3 is still only 4 units, each twice (4
 * wavefronts). With odd rows at j ^ 2, the 8 (g, b) land on all 8 units: 2 wavefronts, the least
 * 256 bytes take. The model counts all three (tensor_model.c), ncu the kernel's (the ncu test's
 * st column). */
COURSE_HD_INLINE unsigned hgemm_c_staging_column(unsigned j, unsigned lane) {
    return 8 * (j ^ (lane / 4 % 2 * 2)) + 2 * (lane % 4);
}

#endif
