/* Timing with CUDA events: warm-up launches first, then each repetition between its own pair of
 * events; the result is the median, min and max over the repetitions. The launcher is told the
 * repetition's number, so that a DRAM-bound chapter can rotate among input sets totalling well
 * over the L2 and no repetition finds its input in cache. */
#ifndef COURSE_BENCH_H
#define COURSE_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double median_ms, min_ms, max_ms;
    int reps;
    int launches; /* warm-up + timed: what a profiler sees for this measurement */
} bench_result;

/* Enqueues one repetition (one or more kernel launches) on the default stream. rep counts from
 * 0 over the warm-up and the timed repetitions, so a launcher can pick buffer set rep % sets. */
typedef void (*bench_fn)(void* ctx, int rep);

/* Runs fn warmup times untimed, then reps times timed; checks every launch. A repetition that
 * launches k kernels should pass kernels_per_rep = k so that `launches` is right. */
bench_result bench_run(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep);

/* bench_run, with the timed repetitions queued behind a gate kernel that the host opens once it
 * has enqueued them all: for launches shorter than the host takes to issue them (a few
 * microseconds), whose timings would otherwise include the host's launch rate. Falls back to
 * bench_run beyond 512 queued launches (the stream's queue would fill and block the host). The
 * gate gives up after 0.2 s (a profiler serializing launches never lets the host open it) and
 * says so once. */
bench_result bench_run_gated(bench_fn fn, void* ctx, int warmup, int reps, int kernels_per_rep);

/* The median, min and max of v[0..n) (n >= 1), which it sorts; min and max may be NULL. */
void bench_stats(double* v, int n, double* median, double* min, double* max);

/* Register spills would put local-memory traffic into a kernel's timings: prints a warning
 * naming the kernel if it uses local memory. */
void bench_warn_if_spilling(const void* kernel, const char* name);

#ifdef __cplusplus
}
#endif

#endif
