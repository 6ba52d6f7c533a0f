/* Chapter 08: what the cp.async GEMM kernels and their bank model share: A's layout in a stage,
 * the shared memory a configuration takes, and the model. (Chapter 06's gemm.h: the geometry, the
 * thread origin, the model's tables.) */
#ifndef GEMM_ASYNC_H
#define GEMM_ASYNC_H

#include "gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where As[m][k] lives in one stage, in floats; k a multiple of 4 keeps the float4 whole. Plain:
 * row-major, as the copies bring it. Swizzled: Swizzle<3,2,3> on float offsets, which is
 * Swizzle<3,4,3> on bytes, the TMA's 128B mode: the eight 16-byte slots of each 128-byte line
 * permuted by the line's index (bits 7-9 XOR bits 4-6), whatever BK is. A copy still writes 16
 * bytes to one slot, and the compute's reads of 4 rows 4 apart (lanes 4 x 8) land in 4 lines at
 * 4 different slots: the model's table in the lesson. */
GEMM_CONST int async_a_slot(int a_swizzled, int bk, int m, int k) {
    return a_swizzled ? (int)layout_swizzle((unsigned)(m * bk + k), 3, 2, 3) : m * bk + k;
}

GEMM_CONST int async_smem_bytes(int bm, int bn, int bk, int stages) {
    return stages * (bm + bn) * bk * 4;
}

/* The kernel's shared accesses per K-slice, by the calibrated model: A's and B's 16-byte copies
 * (cp.async) and the compute's float4 reads of A (along k, 8 rows a thread) and B. Returns 0, or
 * -1 if an access is malformed. */
int gemm_async_model(int bm, int bn, int bk, int nt, int lanes_m, int a_swizzled,
                     gemm_smem_cost* c);

#ifdef __cplusplus
}
#endif

#endif
