/* Chapter 07: reductions, from shared-memory trees to warp shuffles.
 *
 * The sum of n floats, any n >= 0. cub::DeviceReduce::Sum is the baseline, timed in the same run;
 * the kernels (reduce_kernels.cuh) go from the classic shared-memory trees (divergent, strided:
 * bank conflicts, sequential) through a first add and a last warp synchronised with __syncwarp to
 * shuffles, and a one-pass kernel with float4 loads. A warp scan shows shuffles replacing shared
 * memory outside reductions.
 *
 * The program in the lesson's order: the tables, the check (reduce_check.cu), the benchmark and
 * its summary (reduce_bench.cu); the variants are reduce_variants.cu's. */
#include "reduce.h"
#include "reduce_bench.h"
#include "reduce_check.h"
#include "reduce_variants.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

#include <stdio.h>

static const course_cli CLI = {
    "07_warp_shuffle",
    "Sum reduction of n floats: CUB as the baseline; shared-memory trees (divergent, strided,\n"
    "sequential), first add, last warp, warp shuffles, one pass with float4 loads; a warp scan.",
    "the benchmark's largest n (2^16 .. n, doubling); with --check, the one n\n"
    "                  checked (0: the sum of nothing)",
    1 << 28,
    20,
    1L << 30,
    0, /* no --shape */
    0,
    1, /* --size 0 is valid */
    {NULL} /* no side files beside --csv */};

/* ---------------------------------------------------------------- the lesson's tables */

static void print_variants(const course_variants* t) {
    printf("The variants (--variant NAME picks one; --list shows them all):\n");
    course_print_variants(t);
    printf("  warp_volatile runs only when named: --variant warp_volatile --check\n");
}

static void print_tree_tables(void) {
    static const char* const names[] = {"1 divergent", "2 strided", "3 sequential"};
    printf("\nThe trees of kernels 1-3, block of %d floats: shared-memory wavefronts per request\n"
           "at each step, by the bank model (1 is conflict-free):\n",
           RT);
    for (int t = 0; t < 3; ++t) {
        tree_step steps[MAX_TREE_STEPS];
        double ld, st;
        const int n = reduce_tree_model((reduce_tree)t, RT, steps, &ld, &st);
        if (n < 0) die("tree model failed");
        char label[32];
        snprintf(label, sizeof label, "kernel %s", names[t]);
        printf("  %-20s %7s", label, "stride:");
        for (int k = 0; k < n; ++k) printf(" %4d", steps[k].stride);
        printf("\n  %-20s %7s", "", "warps:");
        for (int k = 0; k < n; ++k) printf(" %4d", steps[k].warps);
        printf("\n  %-20s %7s", "", "loads:");
        for (int k = 0; k < n; ++k) printf(" %4.1f", steps[k].ld);
        printf("   (kernel: %.2f)", ld);
        printf("\n  %-20s %7s", "", "stores:");
        for (int k = 0; k < n; ++k) printf(" %4.1f", steps[k].st);
        printf("   (kernel: %.2f)\n", st);
    }
    double wf;
    int req;
    reduce_scan_model(&wf, &req);
    printf("(kernel: per request over the whole kernel, what ncu divides; a warp whose lanes\n"
           "all sit a step out makes no request.)\n");
    printf("A warp's scan of 32 floats through shared memory: %d requests of %.0f wavefront; "
           "with __shfl_up_sync: none.\n",
           req, wf);
}

static void print_resources(const course_variants* t) {
    printf("\nResources (cudaFuncGetAttributes, occupancy API):\n");
    printf("  %-16s %9s %9s %11s %13s\n", "kernel", "threads", "registers", "smem bytes",
           "blocks per SM");
    for (int i = 0; i < t->n; ++i) {
        const course_variant* v = course_variant_at(t, i);
        if (!v->kernel) continue;
        cudaFuncAttributes a;
        CUDA_CHECK(cudaFuncGetAttributes(&a, v->kernel));
        int blocks;
        CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v->kernel, v->needs.threads, 0));
        printf("  %-16s %9d %9d %11zu %13d\n", v->name, v->needs.threads, a.numRegs,
               a.sharedSizeBytes, blocks);
    }
}

/* ---------------------------------------------------------------- main */

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    course_variants variants = reduce_variants();
    /* The lesson's tables first: the model's, they need no GPU. */
    const int lesson = !args.check && !args.bench && !args.list;
    if (lesson && (!args.variant || course_find_variant(&variants, args.variant) >= 0)) {
        print_variants(&variants);
        print_tree_tables();
    }
    course_device dev;
    course_target target;
    rc = course_variants_begin(&CLI, &args, &variants, "the reduction kernels", &dev, &target);
    if (rc >= 0) return rc;

    /* The workspace for the largest n any run here uses. */
    const size_t n_max =
        args.size_given || args.bench || lesson ? (size_t)args.size : (size_t)1 << 28;
    reduce_workspace ws;
    reduce_workspace_alloc(&ws, &dev, n_max);
    if (lesson || args.bench) print_resources(&variants);

    if (args.check || lesson) {
        rc = reduce_check(CLI.program, &variants, &args, &ws);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static reduce_measurement m[512];
    const int n_m = reduce_bench(CLI.program, &variants, &args, &dev, &ws, m, 512);
    reduce_print_measurements(m, n_m);
    int wrong = 0;
    for (int i = 0; i < n_m; ++i) wrong |= m[i].wrong;
    if (args.csv) reduce_write_csv(args.csv, &dev, args.command_line, m, n_m);
    if (lesson) reduce_print_summary(&dev, &variants, m, n_m);
    if (wrong) printf("benchmark: some sums were WRONG (see above)\n");
    return wrong ? EXIT_CHECK_FAILED : EXIT_OK;
}
