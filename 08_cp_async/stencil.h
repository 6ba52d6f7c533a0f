/* Chapter 08, part 1: a 17-point stencil staged tile by tile in shared memory, with plain loads,
 * with cp.async and double-buffered (stencil_kernels.cuh), one block per SM so that only the
 * pipeline can hide a load's latency; checked bit for bit against the CPU, measured in GB/s
 * against cudaMemcpy's (which moves the same bytes). stencil.cu: the variant table, the check,
 * the benchmark and the part's CSV. */
#ifndef STENCIL_H
#define STENCIL_H

#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

/* The side file of --csv FILE (course_side_path: x.csv -> x_stencil.csv). */
#define STENCIL_CSV "_stencil"

/* The part's table: cudaMemcpy (the baseline), stencil_sync, stencil_async, stencil_double. */
course_variants stencil_variants(void);

/* The lesson's CPU part: the kernels. */
void stencil_print_lesson(const course_variants* t);

/* With --check, or in the lesson: every stencil of `running` (those that run here) selected,
 * bit for bit against the CPU; then, not with --check and not with --shape (the GEMMs'), the
 * benchmark, at 2^20 .. 2^28 floats; with --csv FILE, the STENCIL_CSV side file. Returns 0, or 1
 * if the check failed. */
int stencil_run(const char* program, const course_args* a, const course_device* dev,
                const course_variants* running, int lesson);

#endif
