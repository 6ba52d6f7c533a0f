/* Chapter 08, part 2: chapter 06's SGEMM fed by cp.async in 2 to 4 stages, A plain or swizzled,
 * then by the TMA, against cuBLAS and chapter 06's best kernel, through the GEMM chapters' harness
 * (common/gemm/harness.h: check, benchmark, summary); and the alignment trap.
 *   sgemm_variants.cu  the variant table: launches, kernels, bank models
 *   sgemm.cu           the part's run: lesson tables, check, benchmark, CSV (the program's main
 * one) alignment_trap.cu  the trap: A padded, the copies misaligned, the GPU's fault */
#ifndef SGEMM_H
#define SGEMM_H

#include "gemm_async.h"
#include "gemm/harness.h"
#include "gemm/smem_cost.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

/* A kernel of this part: what the harness runs, and what the CSV and the model's table say of it.
 */
typedef struct {
    gemm_variant g;     /* name, number, description, kernel, needs; launch; sweep */
    const char* family; /* the CSV's and the plots' grouping: async, wide, tma, tma_wide, ... */
    int bk, stages;     /* a K-slice's depth, the stages it streams through */
    int a_layout;       /* async_a_layout (chapter 06's kernel: 0) */
    int tn;             /* a lane's micro-tile columns (rows: 8) */
    const char* a_name; /* A's layout in shared memory, for the model's table */
    int tma;            /* 1: fed by the TMA, whose writes are no LSU store (the model's table) */
    async_geometry geo; /* the cp.async and TMA kernels' (bm 0: none) */
    gemm_geometry ch06; /* chapter 06's kernel's (bm 0: none): its stores are st.shared */
    int modelled;       /* the bank model's cost (sgemm_variants), model */
    gemm_smem_cost model;
} sgemm_variant;

/* The part's table: cuBLAS, chapter 06's kernel 8, the cp.async and TMA kernels, the sweep, the
 * exercise's schedule, and last the alignment trap (run only as --variant trap_padded --check).
 * The bank models are computed here: call it once. */
course_variants sgemm_variants(void);

/* The name of the trap's variant. */
#define SGEMM_TRAP "trap_padded"

/* The lesson's CPU part: the kernels (the sweep on one line) and the bank model's table. */
void sgemm_print_lesson(const course_variants* t);

/* With --check, or in the lesson: every variant of `running` (those that run here) selected, on
 * odd shapes against a double reference and against cuBLAS; then, not with --check, the
 * benchmark, its CSV (--csv FILE itself) and, in the lesson, the summary. --variant trap_padded
 * (--check only) runs the trap instead. Returns 0, or 1 if a check failed or an output was
 * wrong. */
int sgemm_run(const char* program, const course_args* a, const course_device* dev,
              const course_variants* running, int lesson);

/* The trap: the bank model's refusal, then the kernel launched, which the GPU must stop with
 * cudaErrorMisalignedAddress; the context is unusable after it. Returns 0 when it is so. */
int alignment_trap_run(const sgemm_variant* trap);

#endif
