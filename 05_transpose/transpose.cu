/* Chapter 05: matrix transpose, from naive to copy speed, on any shape.
 *
 * The kernels (transpose_kernels.cuh) side by side, float and double: cudaMemcpy and a copy
 * kernel as ceilings, two naive transposes, the 32 x 32 shared tile in chapter 02/03's three
 * layouts, and the vector tile (16-byte accesses, register transposes, Swizzle<B,M,S>), whose
 * tile shape and block size come from the sweep this program measures.
 *
 * The program's files: the variants (transpose_variants.cu), the check (transpose_check.cu), the
 * benchmark (transpose_bench.cu), its results (transpose_report.c); here the lesson's opening
 * tables and main. */
#include "transpose_program.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/variant.h"

#include <stdio.h>

static const course_cli CLI = {
    "05_transpose",
    "Matrix transpose, float and double: cudaMemcpy and a copy kernel as ceilings, naive,\n"
    "32x32 shared tiles plain / padded / XOR, and a vectorised swizzled tile; any shape.",
    "the benchmark's largest square, N x N (also N/2 .. N/16, N x N/16 and N/16 x N;\n"
    "                  the tile sweep at N/2 and N)",
    16384,
    20,
    32768,
    2, /* --shape RxC */
    1 << 20,
    0,      /* --size from 1 */
    {NULL}, /* no side files beside --csv */
    {},     /* no parts */
    transpose_pictures /* --picture DIR */};

/* ---------------------------------------------------------------- lesson tables */

static void print_variants(const transpose_variant* v, int n) {
    printf("The variants (--variant NAME picks one; --list shows them all):\n");
    for (int i = 0; i < n; ++i)
        if (!v[i].sweep) printf("  %-15s %s\n", v[i].v.name, v[i].v.description);
    printf("  vec_RxC_tN      the sweep: kernel 7 with an R x C tile and N threads\n");
}

static void print_model(const transpose_variant* v, int n) {
    printf("\nShared memory, wavefronts per request by the model (ideal in brackets):\n");
    printf("%-16s %-7s %16s %16s\n", "variant", "type", "tile write", "read-back");
    for (int i = 0; i < n; ++i)
        for (int t = 0; t < N_TYPES; ++t) {
            const transpose_build* b = &v[i].of_type[t];
            if (b->modelled && b->launch && (!v[i].sweep || t == FLOAT))
                printf("%-16s %-7s %8.2f (%5.2f) %8.2f (%5.2f)\n", v[i].v.name,
                       ELEMENT_TYPES[t].name, b->model.st, b->model.st_ideal, b->model.ld,
                       b->model.ld_ideal);
        }
    printf("The plain tile's read-back walks a column: 32 rows 128 bytes apart (float), all in\n"
           "one bank. Padding and XOR spread them over 32 banks; vec's 16-byte accesses move 512\n"
           "bytes per request, 4 wavefronts at best, and its swizzle gets that on both sides.\n");
}

/* ---------------------------------------------------------------- main */

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    course_variants variants = transpose_variants();
    const transpose_variant* v = (const transpose_variant*)variants.records;
    /* The lesson's tables need no GPU: they come first, for a variant that exists. */
    const int lesson = !args.list && !args.check && !args.bench;
    if (lesson && (!args.variant || course_find_variant(&variants, args.variant) >= 0)) {
        print_variants(v, variants.n);
        print_model(v, variants.n);
    }
    course_device dev;
    course_target target;
    rc = course_variants_begin(&CLI, &args, &variants, "the transpose kernels", &dev, &target);
    if (rc >= 0) return rc;

    if (args.check || lesson) {
        rc = transpose_check(v, variants.n, &args);
        if (rc != EXIT_OK || args.check) return rc;
    }
    static measurement m[1024];
    const int n_m = transpose_bench(v, variants.n, &args, &dev, m);
    transpose_print_measurements(m, n_m);
    int wrong = 0;
    for (int i = 0; i < n_m; ++i) wrong |= m[i].wrong != 0;
    if (args.csv) transpose_write_csv(args.csv, &dev, args.command_line, m, n_m);
    if (lesson) transpose_print_summary(&dev, v, variants.n, m, n_m, &args);
    if (wrong) printf("benchmark: some outputs were WRONG (see above)\n");
    return wrong ? EXIT_CHECK_FAILED : EXIT_OK;
}
