/* The TMA's tensor maps, host side (sm_90): the driver's encoder, found through the runtime (no
 * link to libcuda) by one function, and a 2-D map of a row-major matrix: for chapter 08's TMA
 * kernels and chapter 04's TMA tests. */
#ifndef COURSE_TMA_MAP_H
#define COURSE_TMA_MAP_H

#include "host/device.h"
#include "model/wgmma_desc.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The driver's cuTensorMapEncodeTiled, looked up on the first call (course_driver_function),
 * NULL where the driver offers none. Call it once a device is open. */
PFN_cuTensorMapEncodeTiled_v12000 course_tma_encoder(void);

/* course_require_kernel (host/device.h) for a kernel fed by tensor maps, and the driver's encoder
 * too: EXIT_OK, or EXIT_SKIPPED with the reason printed. */
int course_require_tma_kernel(const course_device* d, const void* kernel, const course_needs* need,
                              const char* what);

/* The TMA's swizzle that writes a wgmma descriptor's mode (model/wgmma_desc.h): the two name
 * the same layouts, numbered differently. */
CUtensorMapSwizzle course_tma_swizzle_of(wgmma_mode m);

/* A 2-D map of X: rows x cols elements of element_bytes each, row-major, rows 16-byte aligned,
 * copied in boxes of box_rows x box_cols, in `swizzle`, zeros past the edges. Dies if the driver
 * has no encoder or refuses the map. */
void course_tma_map_2d(CUtensorMap* map, const void* X, CUtensorMapDataType type, int element_bytes,
                       int rows, int cols, int box_rows, int box_cols, CUtensorMapSwizzle swizzle);

/* The same with rows ld elements apart (ld >= cols, ld * element_bytes a multiple of 16). */
void course_tma_map_2d_ld(CUtensorMap* map, const void* X, CUtensorMapDataType type,
                          int element_bytes, int rows, int cols, int ld, int box_rows, int box_cols,
                          CUtensorMapSwizzle swizzle);

#ifdef __cplusplus
}
#endif

#endif
