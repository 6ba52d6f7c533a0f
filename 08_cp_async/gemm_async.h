/* Chapter 08: what the cp.async GEMM kernels and their bank model share: A's layout in a stage,
 * the shared memory a configuration takes, and the model. (Chapter 06's gemm.h: the geometry, the
 * thread origin, the model's tables.) */
#ifndef GEMM_ASYNC_H
#define GEMM_ASYNC_H

#include "gemm/smem_cost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where As[m][k] lives in one stage, in floats; k a multiple of 4 keeps the float4 whole. Plain:
 * row-major, as the copies bring it. Swizzled: Swizzle<3,2,3> on float offsets, which is
 * Swizzle<3,4,3> on bytes, the TMA's 128B mode: the eight 16-byte slots of each 128-byte line
 * permuted by the line's index (bits 7-9 XOR bits 4-6), whatever BK is. A copy still writes 16
 * bytes to one slot, and the compute's reads of 4 rows 4 apart (lanes 4 x 8) land in 4 lines at
 * 4 different slots: the model's table in the lesson. */
typedef enum {
    ASYNC_A_ROW_MAJOR = 0, /* as the copies bring it */
    ASYNC_A_SWIZZLED = 1,  /* Swizzle<3,4,3> on bytes */
    ASYNC_A_PADDED = 2     /* the trap: rows of BK + 1 floats, so most 16-byte chunks misaligned */
} async_a_layout;

COURSE_HD_INLINE int async_a_slot(int a_layout, int bk, int m, int k) {
    return a_layout == ASYNC_A_SWIZZLED ? (int)layout_swizzle((unsigned)(m * bk + k), 3, 2, 3)
           : a_layout == ASYNC_A_PADDED ? m * (bk + 1) + k
                                        : m * bk + k;
}

/* The same slot for the compute's reads, row row0 + r of a lane, from lane_slot =
 * async_a_slot(a_layout, bk, row0, 0), computed once, and r and k, constants of the unrolled
 * loop. Every layout is linear: row-major and padded in +, the swizzle in XOR (it XORs some bits
 * of the offset into others, so swz(x ^ y) = swz(x) ^ swz(y)). Where row0 and r share no bit (as
 * in every lane of async_lane_origin; gemm_async_model checks each), row0 bk + r bk + k is
 * row0 bk ^ (r bk + k), and the swizzled slot is lane_slot ^ swz(r bk + k). The swizzle repeats
 * every 256 floats (1 KiB: bits 8 and up are neither read nor changed), so the part of r past
 * one period is added instead, an offset the load instruction carries. What is left costs one
 * XOR per distinct (r mod 256 / bk, k), not the whole formula per row and k on every slice. */
COURSE_HD_INLINE int async_a_read_slot(int a_layout, int bk, int lane_slot, int r, int k) {
    return a_layout != ASYNC_A_SWIZZLED
               ? lane_slot + async_a_slot(a_layout, bk, r, k)
               : (lane_slot ^ async_a_slot(a_layout, bk, r % (256 / bk), k)) +
                     (r - r % (256 / bk)) * bk;
}

/* A kernel's geometry: a BM x BN tile of C per block, K-slices of BK, NT threads in warps of
 * lanes_m x (32 / lanes_m) lanes, each lane 8 rows x tn columns (tn = 8: chapter 06's, 16:
 * cuBLAS's 128-thread shape), A's layout; interleave: a lane owns rows lanes_m apart instead of
 * 4 consecutive ones (async_lane_origin). */
typedef struct {
    int bm, bn, bk, nt, lanes_m, tn, interleave, a_layout;
} async_geometry;

/* Where a lane's micro-tile sits in the block's tile: rows row0 + i row_step and
 * row0 + step_m + i row_step, columns col0 + j + h step_n (i, j < 4, h < tn / 4). Each warp
 * covers (8 lanes_m) x (tn 32 / lanes_m). With tn = 8 and no interleave it is chapter 06's
 * gemm_thread_origin. Interleaved, the lanes_m lanes of a column read lanes_m consecutive rows
 * at once (the TMA kernel's conflict-free order: see the README). */
typedef struct {
    int row0, col0, step_m, step_n, row_step;
} async_lane;

COURSE_HD_INLINE async_lane async_lane_origin(int bn, int lanes_m, int tn, int interleave,
                                              int tid) {
    const int lanes_n = 32 / lanes_m, wm = lanes_m * MICRO, wn = lanes_n * tn;
    const int warp = tid / 32, lane = tid % 32, warps_n = bn / wn, g = lane / lanes_n;
    async_lane o = {0, 0, 0, 0, 0};
    o.row0 = warp / warps_n * wm + (interleave ? g : g * QUAD);
    o.col0 = warp % warps_n * wn + lane % lanes_n * QUAD;
    o.step_m = wm / 2;
    o.step_n = lanes_n * QUAD;
    o.row_step = interleave ? lanes_m : 1;
    return o;
}

COURSE_HD_INLINE int async_a_stage_floats(int a_layout, int bm, int bk) {
    return bm * (bk + (a_layout == ASYNC_A_PADDED ? 1 : 0));
}

COURSE_HD_INLINE int async_smem_bytes(int a_layout, int bm, int bn, int bk, int stages) {
    return stages * (async_a_stage_floats(a_layout, bm, bk) + bn * bk) * 4;
}

/* C's tile staged in shared memory (gemm_tma's STAGED_C): element (r, c) of a BM x BN tile at
 * r (bn + STAGED_C_PAD) + c floats. The lanes write their float4s in quarter-warps of 8; where a
 * quarter-warp's lanes span two consecutive rows of 4 float4s each (lanes_m 8, 16 columns a lane),
 * the pad of 16 floats puts the second row on the other 16 banks. A warp then reads 32
 * consecutive floats of one row: one wavefront. The CPU test holds both to the model. */
enum { STAGED_C_PAD = 16 };
COURSE_HD_INLINE int staged_c_slot(int bn, int r, int c) {
    return r * (bn + STAGED_C_PAD) + c;
}

/* The kernel's shared accesses per K-slice, by the calibrated model: A's and B's 16-byte copies
 * (cp.async) and the compute's float4 reads of A (along k, 8 rows a lane) and B. Returns 0, or
 * -1 if an access is malformed (the padded layout: a 16-byte access off its alignment), with
 * the model's reason in *why. */
int gemm_async_model(const async_geometry* g, gemm_smem_cost* c, const char** why);

#ifdef __cplusplus
}
#endif

#endif
