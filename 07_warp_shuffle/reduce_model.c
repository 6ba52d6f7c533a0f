/* Chapter 07: the shared-memory accesses of the tree reductions (kernels 1-3), step by step and
 * warp by warp, through the calibrated bank model; and the shared-memory scan the shuffle scan
 * replaces. The lane-to-address maps are the kernels' (reduce_kernels.cuh). */
#include "reduce.h"

#include "model/smem_model.h"

#include <string.h>

/* The word thread tid reads at step s (and s words further): -1 if the thread sits the step out. */
static int tree_index(reduce_tree tree, int threads, int s, int tid) {
    switch (tree) {
    case TREE_DIVERGENT: /* kernel 1: every 2s-th thread, at its own index */
        return tid % (2 * s) == 0 && tid + s < threads ? tid : -1;
    case TREE_STRIDED: /* kernel 2: the first threads / 2s threads, at 2 s tid */
        return 2 * s * tid + s < threads ? 2 * s * tid : -1;
    default: /* kernels 3-5: the first s threads, at their own index */
        return tid < s ? tid : -1;
    }
}

/* Wavefronts of one warp access at words[l] (lanes with words[l] < 0 inactive): 0 with no active
 * lane (no request at all: see reduce.h), -1 if malformed. */
static int warp_wavefronts(const int* words, smem_op op) {
    smem_access a;
    memset(&a, 0, sizeof a);
    a.width = 4;
    a.op = op;
    for (int l = 0; l < SMEM_WARP; ++l)
        if (words[l] >= 0) {
            a.mask |= 1u << l;
            a.offset[l] = (unsigned)words[l] * 4;
        }
    return a.mask ? smem_wavefronts(&a) : 0;
}

/* Totals over a kernel's shared instructions: wavefronts and requests, loads and stores. */
typedef struct {
    long ld_wf, ld_req, st_wf, st_req;
} totals;

int reduce_tree_model(reduce_tree tree, int threads, tree_step* steps, double* ld, double* st) {
    const int warps = threads / 32;
    /* Every warp's first store; thread 0's final load (kernel 5: its warp's first load of its
     * own value, the sum then leaving from a register). */
    totals t = {1, 1, warps, warps};
    int n = 0;
    for (int k = 0; (1 << k) < threads; ++k) {
        const int s = tree == TREE_DIVERGENT || tree == TREE_STRIDED ? 1 << k : threads >> (k + 1);
        const int one_warp = tree == TREE_LAST_WARP && s <= 32; /* warp 0 alone, all lanes */
        if (n == MAX_TREE_STEPS) return -1;
        tree_step* step = &steps[n++];
        memset(step, 0, sizeof *step);
        step->stride = s;
        long step_ld = 0, step_st = 0;
        for (int w = 0; w < (one_warp ? 1 : warps); ++w) {
            int mine[SMEM_WARP], partner[SMEM_WARP];
            for (int l = 0; l < SMEM_WARP; ++l) {
                mine[l] = one_warp ? l : tree_index(tree, threads, s, w * 32 + l);
                partner[l] = mine[l] < 0 ? -1 : mine[l] + s;
            }
            /* Kernel 5's warp keeps its own value in a register: only the partner is loaded. */
            const int a = one_warp ? 0 : warp_wavefronts(mine, SMEM_LOAD),
                      b = warp_wavefronts(partner, SMEM_LOAD),
                      c = warp_wavefronts(mine, SMEM_STORE);
            if (a < 0 || b < 0 || c < 0) return -1;
            t.ld_wf += a + b; /* a request per access with an active lane */
            t.ld_req += (a > 0) + (b > 0);
            t.st_wf += c;
            t.st_req += c > 0;
            if (c == 0) continue; /* no active lane: the table shows the warps that work */
            ++step->warps;
            step_ld += a + b;
            step_st += c;
        }
        step->ld = step->warps ? (double)step_ld / ((one_warp ? 1 : 2) * step->warps) : 0;
        step->st = step->warps ? (double)step_st / step->warps : 0;
    }
    *ld = (double)t.ld_wf / t.ld_req;
    *st = (double)t.st_wf / t.st_req;
    return n;
}

void reduce_scan_model(double* wavefronts_per_request, int* requests_per_warp) {
    /* Lane l stores its value at s[l]; then for d = 1, 2, 4, 8, 16 reads s[l - d] (lanes l >= d)
     * and stores its new value at s[l]: consecutive words, one wavefront each. */
    int words[SMEM_WARP];
    long wf = 0;
    int req = 0;
    for (int l = 0; l < SMEM_WARP; ++l) words[l] = l;
    wf += warp_wavefronts(words, SMEM_STORE), ++req;
    for (int d = 1; d < 32; d *= 2) {
        int from[SMEM_WARP];
        for (int l = 0; l < SMEM_WARP; ++l) from[l] = l >= d ? l - d : -1;
        wf += warp_wavefronts(from, SMEM_LOAD) + warp_wavefronts(words, SMEM_STORE);
        req += 2;
    }
    *wavefronts_per_request = (double)wf / req;
    *requests_per_warp = req;
}
