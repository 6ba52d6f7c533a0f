/* Chapter 08: cp.async, from one streaming kernel to a pipelined SGEMM and the tensor cores, in
 * four parts run in lesson order, each with its own variants, check, benchmark and CSV:
 *   stencil  (stencil.h)  a stencil staged with plain loads, cp.async and two stages
 *   sgemm    (sgemm.h)    chapter 06's SGEMM fed by cp.async and by the TMA; the alignment trap
 *   tensor   (tensor.h)   an FP16 GEMM on mma.sync, fed by cp.async and ldmatrix, then the TMA
 *   shapes   (shapes.h)   sgemm_auto: one SGEMM for every shape, against cuBLAS on a sweep
 * --part NAME runs one part, --variant NAME the part that has it. This file: the command line,
 * the parts' tables listed and judged, main. */
#include "sgemm.h"
#include "shapes.h"
#include "stencil.h"
#include "tensor.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "host/picture.h"
#include "host/tma_map.h"
#include "host/variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SUMMARY[] =
    "cp.async: a stencil staged with plain loads, cp.async and two stages; chapter 06's SGEMM\n"
    "fed by cp.async in 2 to 4 stages, A plain or swizzled, against cuBLAS; an FP16 GEMM on the\n"
    "tensor cores (cp.async, ldmatrix, mma.sync) against cuBLAS and mma.sync's ceiling; one SGEMM\n"
    "for every shape (sgemm_auto) on a sweep of shapes against cuBLAS.";

/* The chapter's pictures: part 3's and part 4's, each drawn whatever happens to the other. */
static int cp_async_pictures(const char* dir) {
    return course_picture_join(tensor_pictures(dir), shapes_pictures(dir));
}

static const course_cli CLI = {
    .program = "08_cp_async",
    .summary = SUMMARY,
    .size = "the GEMM benchmark's largest cube N^3, as chapter 06 (the stencil runs\n"
            "                  at 2^20 .. 2^28 floats); with --check, the largest GEMM dimension\n"
            "                  checked, and n up to N^2 for the stencil",
    .default_size = 8192,
    .default_reps = 20,
    .max_size = 16384,
    .shape_dims = 3, /* --shape MxNxK: the GEMM parts' */
    .max_dim = 1 << 17,
    .size_zero_ok = 0,
    .side_files = {STENCIL_CSV, TENSOR_CSV, SHAPES_CSV}, /* beside --csv: parts 1, 3 and 4's */
    .parts = {"stencil", "sgemm", "tensor", "shapes"},
    .pictures = cp_async_pictures, /* the tensor part's C staging, part 4's stream-K */
};

/* A part: its table, the CPU half of its lesson, and its run on the variants that run here. */
typedef struct {
    const char* name; /* --part NAME: CLI.parts' */
    const char* title;
    course_variants (*variants)(void);
    void (*print_lesson)(const course_variants* t);
    int (*run)(const char* program, const course_args* a, const course_device* dev,
               const course_variants* running, int lesson);
} cp_async_part;

static const cp_async_part PARTS[] = {
    {"stencil", "Part 1, the stencil (--part stencil):", stencil_variants, stencil_print_lesson,
     stencil_run},
    {"sgemm", "Part 2, the SGEMM on cp.async and the TMA (--part sgemm):", sgemm_variants,
     sgemm_print_lesson, sgemm_run},
    {"tensor", "Part 3, the tensor cores (--part tensor):", tensor_variants, tensor_print_lesson,
     tensor_run},
    {"shapes", "Part 4, one SGEMM for every shape (--part shapes):", shapes_variants,
     shapes_print_lesson, shapes_run},
};
enum { N_PARTS = sizeof PARTS / sizeof PARTS[0], STENCIL_PART = 0 };

/* The TMA's variants (compute capability 9.0, the chapter's only ones) also need, on a device,
 * the driver's encoder for their tensor maps: 1, with the reason, where it is missing. */
static int tma_encoder_missing(const course_target* t, const course_variant* x, char* why,
                               size_t len) {
    if (x->needs.arch < 90 || t->from_table || course_tma_encoder()) return 0;
    snprintf(why, len, "the driver offers no cuTensorMapEncodeTiled (update it)");
    return 1;
}

/* The verdict on each variant of a part (course_judge, and the TMA's encoder), runs[i]; returns
 * how many of the chapter's own kernels run: those on the instructions it teaches (cp.async,
 * mma.sync, the TMA: compute capability 8.0 or newer). Its baselines run anywhere and do not
 * make it run on a GPU without cp.async: cudaMemcpy and cuBLAS, stencil_sync (plain loads) and
 * chapter 06's kernel. */
static int judge(const course_target* t, const course_variants* v, int* runs) {
    int own = 0;
    course_judge(t, v, runs);
    /* Part 3 needs mma.sync for its ceiling and for every variant's fallback on rows the TMA
     * cannot map: where the ceiling cannot run, neither can a wgmma variant, whose own code is
     * sm_90a's in any build (a build for 75-virtual alone, on a Hopper GPU). */
    const int ceiling = course_find_variant(v, TENSOR_CEILING);
    const int no_mma = ceiling >= 0 && !runs[ceiling];
    for (int i = 0; i < v->n; ++i) {
        const course_variant* x = course_variant_at(v, i);
        char why[256];
        if (runs[i] && no_mma && !x->baseline) {
            runs[i] = 0;
            printf("%s skipped: part 3 needs mma.sync (its ceiling, the fallbacks on unaligned "
                   "rows), which this build's code lacks\n",
                   x->name);
        }
        if (runs[i] && tma_encoder_missing(t, x, why, sizeof why)) {
            runs[i] = 0;
            printf("%s skipped: %s\n", x->name, why);
        }
        own += runs[i] && !x->baseline && x->needs.arch >= 80;
    }
    return own;
}

/* The part called name (--part's), or -1. */
static int part_named(const char* name) {
    for (int p = 0; p < N_PARTS; ++p)
        if (name && !strcmp(name, PARTS[p].name)) return p;
    return -1;
}

/* Which parts run: --part's, else --variant's (the part that has it), else every one (-1).
 * Returns -1 to go on, else the exit code of a usage error. */
static int select_part(const course_args* a, const course_variants* tables, int* part) {
    *part = part_named(a->part);
    if (a->variant) { /* part 4 times some of part 2's kernels again: the first part with it */
        int has = -1;
        for (int p = N_PARTS - 1; p >= 0; --p)
            if (course_find_variant(&tables[p], a->variant) >= 0) has = p;
        if (has < 0) return course_usage_error(&CLI, "no variant '%s' (see --list)", a->variant);
        if (*part >= 0 && course_find_variant(&tables[*part], a->variant) >= 0) has = *part;
        if (*part >= 0 && *part != has)
            return course_usage_error(&CLI, "%s is a variant of part %s, not of part %s",
                                      a->variant, PARTS[has].name, PARTS[*part].name);
        if (!strcmp(a->variant, SGEMM_TRAP) && !a->check && !a->list)
            return course_usage_error(&CLI, "trap_padded runs only with --check (its fault leaves "
                                            "the GPU context unusable)");
        if (has == STENCIL_PART && a->shape_given)
            return course_usage_error(&CLI, "--shape is the GEMM's; %s is a stencil", a->variant);
        *part = has;
    }
    if (*part == STENCIL_PART && a->shape_given)
        return course_usage_error(&CLI, "--shape is the GEMMs'; the stencil part takes none");
    return -1;
}

static int selected(int only, int p) {
    return only < 0 || only == p;
}

/* Each part's heading, a blank line between parts. */
static void print_heading(int only, int p) {
    printf("%s%s\n", p && only < 0 ? "\n" : "", PARTS[p].title);
}

/* --list: the tables of the parts (--part: its own), each under its heading; with --gpu NAME
 * every variant's verdict on that GPU of the table and the chapter's. */
static int list_parts(const course_args* a, const course_variants* tables, int only) {
    for (int p = 0; p < N_PARTS; ++p)
        if (selected(only, p)) {
            print_heading(only, p);
            course_print_variants(&tables[p]);
        }
    course_target target;
    if (course_target_of_table(a->gpu, &target)) {
        int own = 0;
        for (int p = 0; p < N_PARTS; ++p)
            if (selected(only, p)) {
                int* runs = (int*)calloc((size_t)tables[p].n + 1, sizeof *runs);
                if (!runs) die("out of host memory");
                own += judge(&target, &tables[p], runs);
                free(runs);
            }
        course_chapter_verdict(&target, own, NULL, 1);
    }
    return EXIT_OK;
}

/* The device opened and printed, the selected parts' variants judged on it and those that cannot
 * run dropped from their tables, the chapter's verdict (77 when none of its own kernels, or not
 * the one named, can run). Returns -1 to go on, else the exit code. */
static int open_parts(const course_args* a, course_variants* tables, int only, course_device* dev) {
    int rc = course_device_open(dev, 7, 5, "the cp.async chapter");
    if (rc != EXIT_OK) return rc;
    course_device_print(dev);
    course_target target;
    course_target_of_device(dev, &target);
    int own = 0, named_runs = !a->variant;
    for (int p = 0; p < N_PARTS; ++p) {
        if (!selected(only, p)) continue;
        course_variants* t = &tables[p];
        int* runs = (int*)calloc((size_t)t->n + 1, sizeof *runs);
        if (!runs) die("out of host memory");
        own += judge(&target, t, runs);
        const int named = a->variant ? course_find_variant(t, a->variant) : -1;
        if (named >= 0) named_runs = runs[named];
        t->n = course_keep(t->records, t->size, t->n, runs);
        free(runs);
    }
    rc = course_chapter_verdict(&target, own, a->variant, named_runs);
    return rc == EXIT_OK ? -1 : rc;
}

int main(int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(&CLI, argc, argv, &args);
    if (rc >= 0) return rc;
    course_variants tables[N_PARTS];
    for (int p = 0; p < N_PARTS; ++p) tables[p] = PARTS[p].variants();
    int only;
    rc = select_part(&args, tables, &only);
    if (rc >= 0) return rc;
    if (args.list) return list_parts(&args, tables, part_named(args.part));
    const int lesson = !args.check && !args.bench;
    if (lesson) {
        printf("The kernels (--variant NAME picks one, --part NAME a part; --list shows them "
               "all):\n\n");
        for (int p = 0; p < N_PARTS; ++p)
            if (selected(only, p)) {
                print_heading(only, p);
                PARTS[p].print_lesson(&tables[p]);
            }
    }
    course_device dev;
    rc = open_parts(&args, tables, only, &dev);
    if (rc >= 0) return rc;
    int failed = 0;
    for (int p = 0; p < N_PARTS; ++p)
        if (selected(only, p)) failed |= PARTS[p].run(CLI.program, &args, &dev, &tables[p], lesson);
    return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}
