/* Chapter 08: the CPU checker of a pipeline schedule (pipeline.h). The model: S stages, each
 * holding at most one slice; commit groups numbered in the order they are committed, each with the
 * copies issued since the last commit; wait_group N completes every group but the newest N. */
#include "pipeline.h"

#include <stdio.h>

typedef struct {
    int slice;  /* the slice the stage holds (or is receiving), -1: none */
    int group;  /* the commit group of its copy, -1: still uncommitted */
    int landed; /* 1: its group has completed */
} stage_state;

int pipeline_check(pipeline_step_fn step, int slices, int stages, char* why, int why_size) {
    stage_state st[PIPELINE_MAX_STAGES];
    if (stages < 2 || stages > PIPELINE_MAX_STAGES || slices < 1) {
        snprintf(why, why_size, "the checker takes 2 to %d stages and at least one slice",
                 PIPELINE_MAX_STAGES);
        return 1;
    }
    int groups = 0; /* committed so far */
    /* The prologue: slice s into stage s, a group each (empty past the last slice). */
    for (int s = 0; s < stages; ++s) st[s].slice = -1, st[s].group = -1, st[s].landed = 0;
    for (int s = 0; s < stages - 1; ++s) {
        if (s < slices) st[s].slice = s, st[s].group = groups;
        ++groups;
    }
    for (int t = 0; t < slices; ++t) {
        const pipeline_step p = step(t, slices, stages);
        if (p.wait_depth < 0 || p.wait_depth >= PIPELINE_MAX_STAGES) {
            snprintf(why, why_size, "t = %d: wait_group %d (the kernels take 0 to %d)", t,
                     p.wait_depth, PIPELINE_MAX_STAGES - 1);
            return 1;
        }
        /* wait_group: every group but the newest wait_depth completes. */
        for (int s = 0; s < stages; ++s)
            if (st[s].group >= 0 && st[s].group < groups - p.wait_depth) st[s].landed = 1;
        if (p.read_stage < 0 || p.read_stage >= stages || st[p.read_stage].slice != t) {
            snprintf(why, why_size, "t = %d: stage %d holds slice %d, not slice %d", t,
                     p.read_stage,
                     p.read_stage >= 0 && p.read_stage < stages ? st[p.read_stage].slice : -1, t);
            return 1;
        }
        if (!st[p.read_stage].landed) {
            snprintf(why, why_size,
                     "t = %d: slice %d is read while its copy may still be in flight (wait_group "
                     "%d leaves its group pending)",
                     t, t, p.wait_depth);
            return 1;
        }
        /* After the barrier: issue, then commit (always, so that the group count stays even). */
        if (p.fetch_slice >= 0) {
            if (p.fetch_slice >= slices || p.fetch_stage < 0 || p.fetch_stage >= stages) {
                snprintf(why, why_size, "t = %d: fetch of slice %d into stage %d is out of range",
                         t, p.fetch_slice, p.fetch_stage);
                return 1;
            }
            const stage_state* old = &st[p.fetch_stage];
            if (p.fetch_stage == p.read_stage || (old->slice >= t && old->slice >= 0)) {
                snprintf(why, why_size,
                         "t = %d: slice %d would overwrite stage %d, which holds slice %d, still "
                         "to be read",
                         t, p.fetch_slice, p.fetch_stage, old->slice);
                return 1;
            }
            st[p.fetch_stage].slice = p.fetch_slice;
            st[p.fetch_stage].group = groups;
            st[p.fetch_stage].landed = 0;
        }
        ++groups;
        /* Full overlap: the slice S - 1 ahead is on its way, and the wait left every newer slice
         * in flight (near the end the newer groups are empty: waiting for them costs nothing). */
        const int want = t + stages - 1 < slices ? t + stages - 1 : -1;
        const int in_flight = slices - 1 - t < stages - 2 ? slices - 1 - t : stages - 2;
        if (p.fetch_slice != want) {
            snprintf(why, why_size,
                     "t = %d: correct, but slice %d is not the one to fetch now: the pipeline "
                     "runs dry (or fetches past the end); which slice keeps %d stages busy?",
                     t, p.fetch_slice, stages);
            return 1;
        }
        if (p.wait_depth < in_flight) {
            snprintf(why, why_size,
                     "t = %d: correct, but wait_group %d also waits for newer slices than the "
                     "one read: how many groups may stay pending?",
                     t, p.wait_depth);
            return 1;
        }
    }
    return 0;
}
