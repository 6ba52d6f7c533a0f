/* Chapter 08: tensor maps for the TMA (sm_90), defined in cp_async.cu, which looks the driver's
 * encoder up once the GPU is open; hgemm.cu's TMA kernel uses them too. */
#ifndef TMA_MAP_H
#define TMA_MAP_H

#include "host/device.h"

#include <cuda.h>
#include <stddef.h>

/* 1 once the TMA is usable: an sm_90 GPU, the driver's encoder, and a build for sm_90. */
int tma_ready(void);

/* What a TMA variant needs beyond its course_needs, on a device: the driver's encoder. 1, with
 * the reason in why, where it is missing; 0 where it is there, or t is a GPU of the table. */
int tma_encoder_missing(const course_target* t, char* why, size_t len);

/* A 2-D map of X (rows x cols of element_bytes each, row-major, rows 16-byte aligned) copied in
 * boxes of box_rows x box_cols, zeros past the edges; dies if the driver refuses it. */
void tma_map(CUtensorMap* map, const void* X, CUtensorMapDataType type, int element_bytes, int rows,
             int cols, int box_cols, int box_rows, CUtensorMapSwizzle swizzle);

#endif
