/* Chapter 08: the exercise's solution (pipeline.h). */
#include "pipeline.h"

COURSE_HD pipeline_step exercise_pipeline_step(int t, int slices, int stages) {
    pipeline_step p;
    /* Groups committed before this wait: S - 1 in the prologue, one per iteration since; slice
     * t's is the (t + 1)-th, so S - 2 newer ones may stay in flight. */
    p.wait_depth = stages - 2;
    p.read_stage = t % stages;
    /* The stage iteration t - 1 read, free once every thread has passed the barrier. */
    p.fetch_slice = t + stages - 1 < slices ? t + stages - 1 : -1;
    p.fetch_stage = (t + stages - 1) % stages;
    return p;
}
