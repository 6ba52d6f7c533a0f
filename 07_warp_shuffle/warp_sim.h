/* A warp simulator for the exercise's CPU test: runs one function as the threads of one block,
 * one host thread each, and gives them the operations the exercise uses (shuffles, the block's
 * barrier) with the semantics of the GPU for code in which every lane of a warp makes the same
 * calls. The device build never calls it: reduce_ops.h picks the intrinsics there. */
#ifndef WARP_SIM_H
#define WARP_SIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* Runs body(tid, ctx) for tid = 0 .. threads - 1 (a multiple of 32, at most 1024), as one block. */
void warp_sim_run(int threads, void (*body)(int tid, void* ctx), void* ctx);

/* The calling simulated thread's index; the block's size. */
int warp_sim_tid(void);
int warp_sim_threads(void);

/* __shfl_down_sync / __shfl_xor_sync with all 32 lanes of the warp taking part. */
float warp_sim_shfl_down(float v, unsigned delta);
float warp_sim_shfl_xor(float v, unsigned lane_mask);

/* __syncthreads(). */
void warp_sim_syncthreads(void);

#ifdef __cplusplus
}
#endif

#endif
