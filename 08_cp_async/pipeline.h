/* Chapter 08: the software pipeline's bookkeeping, shared by the kernels, the solution, the
 * exercise and the CPU checker of a schedule.
 *
 * A kernel streams K-slices t = 0 .. T-1 through S stage buffers of shared memory (S = 2..4).
 * cp.async copies are grouped: each thread commits one group per slice it issues
 * (cp.async.commit_group), and cp.async.wait_group N blocks until at most N of its newest groups
 * are still in flight. The kernels keep the count uniform by committing a group every iteration,
 * an empty one when there is nothing left to fetch:
 *
 *   prologue:     issue slices 0 .. S-2 into stages 0 .. S-2, a group each
 *   iteration t:  wait_group(wait_depth); __syncthreads();
 *                 issue fetch_slice into fetch_stage (nothing if fetch_slice < 0); commit;
 *                 compute on read_stage
 *
 * The barrier does two jobs: every thread's copies of slice t are complete and visible, and
 * every thread is done reading the stage that slice t + S - 1 is about to overwrite (the one
 * iteration t - 1 read). */
#ifndef PIPELINE_H
#define PIPELINE_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { PIPELINE_MAX_STAGES = 4 };

typedef struct {
    int wait_depth;  /* the N of cp.async.wait_group N before the barrier (0 .. 3) */
    int read_stage;  /* the stage slice t is read from */
    int fetch_slice; /* the slice to issue in this iteration, -1 for none */
    int fetch_stage; /* where it goes */
} pipeline_step;

/* ---------------------------------------------------------------- the exercise
 * Iteration t of T slices with S stages, the prologue above having issued slices 0 .. S-2: what
 * to wait for, which stage to read, what to fetch and where. Correct means never reading a slice
 * whose copy may be in flight and never overwriting a stage a slice still needs; the test also
 * asks for the deepest overlap: the slice S - 1 ahead fetched, and the wait leaving every newer
 * slice in flight. */
COURSE_HD pipeline_step exercise_pipeline_step(int t, int slices, int stages);

/* ---------------------------------------------------------------- the checker
 * Replays a schedule (step(t, T, S) for t = 0 .. T-1, after the prologue) on a model of the
 * stages and the commit groups. Returns 0 if it is correct and overlaps fully; otherwise 1, with
 * the first fault written to why (a sentence naming t, the slice and the stage). */
typedef pipeline_step (*pipeline_step_fn)(int t, int slices, int stages);
int pipeline_check(pipeline_step_fn step, int slices, int stages, char* why, int why_size);

#ifdef __cplusplus
}
#endif

#endif
