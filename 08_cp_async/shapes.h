/* Chapter 08, part 4: one SGEMM for every shape. sgemm_auto (sgemm_auto_run.h) against cuBLAS and
 * the fixed kernels of part 2 on a sweep of shapes: cubes from 1024 to 8192 with odd sizes among
 * them, tall, wide, long-K and short-K; its check on every path it can take.
 *   shapes.cu       the part: its variants, lesson, check, sweep and CSV
 *   sgemm_auto.cu   the function; sgemm_plan.c its plan and table; sgemm_tune.cu the table's
 *                   measurement */
#ifndef SHAPES_H
#define SHAPES_H

#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

/* The part's table: cuBLAS, auto, part 2's best fixed kernels, and auto forced onto each of its
 * paths (checked, not timed). */
course_variants shapes_variants(void);

/* The lesson's CPU part: the plan auto makes on an H200 for each shape of the sweep. */
void shapes_print_lesson(const course_variants* t);

/* --check: every variant on the harness's odd shapes and layouts, then on shapes that take the
 * hybrid and stream-K paths; the benchmark: the sweep, its CSV (beside --csv: SHAPES_CSV) and,
 * in the lesson, the summary. Returns 0, or 1 if a check failed or an output was wrong. */
int shapes_run(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson);

#define SHAPES_CSV "_shapes"

/* Part 4's picture (--picture DIR): one product's blocks on the slots, data-parallel and
 * stream-K, as sgemm_plan_for divides it. */
int shapes_pictures(const char* dir);

#endif
