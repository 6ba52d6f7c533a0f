/* Chapter 08: the exercise's pipeline bookkeeping as gemm_async's schedule policy (beside
 * reference_schedule, gemm_async_kernels.cuh): exercise_pipeline_step, compiled apart (solution.cu
 * in the program and its test, exercise.cu in the exercise's build) and called across files
 * (relocatable device code). The variant async_exercise times it beside async_3. */
#ifndef EXERCISE_SCHEDULE_CUH
#define EXERCISE_SCHEDULE_CUH

#include "pipeline.h"

struct exercise_schedule {
    template <int STAGES>
    static __device__ __forceinline__ pipeline_step at(int t, int slices) {
        return exercise_pipeline_step(t, slices, STAGES);
    }
};

#endif
