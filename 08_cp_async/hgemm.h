/* Chapter 08, part 3: the FP16 tensor-core GEMM (hgemm_kernels.cuh), its check against a CPU
 * double reference, its benchmark against cuBLAS and the mma.sync ceiling, and its CSV. Called
 * from cp_async.cu's main. */
#ifndef HGEMM_H
#define HGEMM_H

#include "host/cli.h"
#include "host/device.h"

/* 1 if name is one of part 3's variants (hgemm_*, mma_ceiling). */
int hgemm_has_variant(const char* name);

/* Which of part 3's variants run on t (needs.h; the TMA's also need the driver's encoder, on a
 * device): each that does not is printed with the reason (with --list --gpu, every one).
 * Returns how many of the course's own kernels run. Call before any other function below. */
int hgemm_judge(const course_target* t);

/* 1 if part 3's variant `name` (or mma_ceiling) runs here, as hgemm_judge found. */
int hgemm_runs(const char* name);

/* One line per variant, "number name what", each after pad; lesson: the sweep on one line. */
void hgemm_list(const char* pad, int lesson);

/* The model's ldmatrix wavefronts per request of every layout, for the lesson. */
void hgemm_print_model(void);

/* Every variant (or only `only`) against the CPU on odd shapes (a->shape_given: that shape),
 * outputs poisoned first; returns 0 when all agree. */
int hgemm_check(const course_args* a, unsigned long long* seed, const char* only);

/* The side file of --csv FILE that hgemm_bench writes (course_side_path: x.csv -> x_hgemm.csv). */
#define HGEMM_CSV "_hgemm"

/* The benchmark at 4096^3 and 8192^3 (a->shape_given: that shape), the mma.sync ceiling and
 * cuBLAS in the same run; writes csv's HGEMM_CSV side file (if csv is not NULL); lesson: the
 * summary table too. Returns 0, or 1 if an output disagreed with cuBLAS's. */
int hgemm_bench(const char* program, const course_args* a, const course_device* dev,
                const char* only, const char* csv, int lesson);

#endif
