/* Chapter 08, part 3's wgmma kernels (hgemm_wgmma_kernels.cuh) as the variant table sees them.
 * They are compiled apart (hgemm_wgmma.cu, a library of its own built for sm_90a whatever the
 * course is built for): wgmma exists only in sm_90a code, which runs on sm_90 GPUs alone, and
 * elsewhere the variants report skipped. */
#ifndef HGEMM_WGMMA_H
#define HGEMM_WGMMA_H

#include "tensor.h"

#include <stddef.h>

/* The kernels, in the lesson's order: 16 one warpgroup, 17 specialised warpgroups, 18
 * persistent, 19 persistent with C through the TMA, in the 128B mode; then 19 in the other
 * three modes, the chapter's measurement of what a mode costs; 21, 19 in clusters of two blocks
 * sharing B by multicast. */
enum {
    WG_ONE_WARPGROUP,
    WG_SPECIALISED,
    WG_PERSISTENT,
    WG_TMA_C,
    WG_TMA_C_64B,
    WG_TMA_C_32B,
    WG_TMA_C_NONE,
    WG_CLUSTER,
    WG_KINDS
};

typedef struct {
    const void* kernel;
    size_t dynamic_smem;
    int threads, bm, bn, stages;
    int mode;     /* wgmma_mode (model/wgmma_desc.h): the TMA's swizzle and the descriptors' */
    int stores_c; /* 1: C through the TMA where beta = 0 */
} hgemm_wgmma_info;

hgemm_wgmma_info hgemm_wgmma_info_of(int kind);

/* The call through kernel `kind`: 1, or 0 where its tensor maps cannot take it (K = 0, rows or
 * matrices not 16-byte aligned, C not 8-byte aligned, no encoder in the driver): the caller
 * falls back. M and N > 0. */
int hgemm_wgmma_launch(int kind, const tensor_call* c);

/* The wgmma ceiling (wgmma_ceiling): its kernel, shared memory, threads and flops a block, and
 * `blocks` blocks of it, each thread's sum into out. */
const void* hgemm_wgmma_ceiling_kernel(void);
size_t hgemm_wgmma_ceiling_smem(void);
int hgemm_wgmma_ceiling_threads(void);
double hgemm_wgmma_ceiling_flops_per_block(void);
void hgemm_wgmma_launch_ceiling(int blocks, float* out);

#endif
