/* Chapter 08, part 3: the calibrated bank model (common/model) on the tensor-core kernels' shared
 * memory: the ldmatrix reads of a stage's tiles, and hgemm_tma_persistent's staging of C. */
#ifndef TENSOR_MODEL_H
#define TENSOR_MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* The worst ldmatrix wavefronts per request over the tiles of a BM x BN x BK stage in `layout`
 * (hgemm_layout): A (BM x BK halves) read by .x4, B (BK x BN) by .x4.trans, into *a_wf and *b_wf.
 * A padded tile is a plain one with 8 more halves a row; a TMA tile is panels of 64 halves, each
 * swizzled as a tile of its own (a warp's matrix never straddles two). Returns 0, or -1 where the
 * model has none. */
int tensor_ldmatrix_model(int layout, int bm, int bn, int bk, int* a_wf, int* b_wf);

/* The wavefronts per float2 store of C's staging (hg_store_tma), the worst of a chunk row's 16:
 * the boxes' 128-byte rows plain or in the 128B swizzle (hgemm_c_staging_offset), lanes in mma
 * order or with odd rows at j ^ 2 (hgemm_c_staging_column). *ideal: 2. */
int tensor_c_staging_model(int swizzled, int odd_rows_swapped, int* ideal);

#ifdef __cplusplus
}
#endif

#endif
