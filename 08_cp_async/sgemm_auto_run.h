/* Chapter 08, part 4: sgemm_auto on a call (sgemm_auto.cu). The plan itself is sgemm_auto.h's. */
#ifndef SGEMM_AUTO_RUN_H
#define SGEMM_AUTO_RUN_H

#include "sgemm_auto.h"
#include "gemm/harness.h"
#include "host/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha A B + beta C (gemm_call: row-major, any M, N, K >= 0, any leading dimension and base),
 * ordered in the default stream (the edges run on a stream of sgemm_auto's own, forked from it
 * and joined back into it); the plan from the table. alpha = 0 or K = 0 is C = beta C, A and B not
 * read. A call BLAS would refuse (a negative size, lda < K, ldb or ldc < N) stops the program
 * with a message. The first call opens what it needs (the current device's facts, the table:
 * COURSE_SGEMM_TABLE's file if set, else the built-in H200 one); the workspace (packed operands,
 * stream-K parts) is allocated on the first call that needs more than any before. One device
 * per program (the one current at the first call), one host thread at a time. */
void sgemm_auto(const gemm_call* c);

/* The parts of it, for the chapter to show and measure: the GPU's facts and the table in use; the
 * plan for a call (forced: that choice instead of the table's; cp_async: that feed even where the
 * TMA is); a plan run; and a plan's side work alone, its packing where `pack`, its edges where
 * `edges` (what each costs). */
void sgemm_auto_configure(void);

/* The kernel a tile and split run on a feed (tma: the TMA's, else cp.async's) and what it needs
 * (compute capability, feature, shared memory, threads): what a variant that runs it declares, so
 * that the verdict on a GPU and a build (course_judge) can skip it with the reason. */
course_variant sgemm_auto_kernel(sgemm_tile tile, sgemm_split split, int tma);
const sgemm_gpu* sgemm_auto_gpu(void);
const sgemm_table* sgemm_auto_table(void);
sgemm_plan sgemm_auto_plan(const gemm_call* c, const sgemm_choice* forced, int cp_async);
void sgemm_auto_run(const gemm_call* c, const sgemm_plan* p);
void sgemm_auto_side_work(const gemm_call* c, const sgemm_plan* p, int pack, int edges);

#ifdef __cplusplus
}
#endif

#endif
