/* A chapter's variants: one record each, the same first member in every chapter, and the start
 * every chapter's main shares (the variant named, --list, the GPU opened, what runs on it).
 *
 * A chapter's record begins with a course_variant and adds what its workload needs (a launch
 * function, a model, a geometry), written with named initialisers:
 *
 *     typedef struct {
 *         course_variant v;
 *         launch_fn launch;
 *         double model_ld;
 *     } reduce_variant;
 *     static reduce_variant table[] = {
 *         {.v = {.name = "cub", .description = "...", .baseline = 1}, .launch = launch_cub},
 *         {.v = {.name = "shuffle", .number = 6, .kernel = (const void*)reduce_shuffle,
 *                .needs = {.threads = 256}}, .launch = launch_shuffle},
 *     };
 *
 * and is handed to the functions below as a course_variants: the records, their size, how many. */
#ifndef COURSE_VARIANT_H
#define COURSE_VARIANT_H

#include "host/cli.h"
#include "host/device.h"
#include "host/needs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char* name; /* --variant NAME */
    int number;       /* the kernel's number in the lesson (its README lists them); 0: a baseline */
    const char* description;
    int baseline;       /* 1: a library's (cuBLAS, CUB, cudaMemcpy), not the chapter's own kernel */
    int on_request;     /* 1: runs only when named (a counter-example, a trap) */
    const void* kernel; /* the __global__ function (its resources, its build); NULL: none */
    course_needs needs; /* the GPU and the build it needs (needs.h) */
} course_variant;

typedef struct {
    void* records; /* n records of `size` bytes, each beginning with a course_variant */
    size_t size;
    int n;
} course_variants;

course_variants course_variants_of(void* records, size_t size, int n);
course_variant* course_variant_at(const course_variants* t, int i);

/* The index of the variant called name, or -1. */
int course_find_variant(const course_variants* t, const char* name);

/* "  NN name  description", one line each: --list and the lesson's table of variants. */
void course_print_variants(const course_variants* t);

/* Whether variant x runs in this invocation: the one named with --variant, else every one not
 * run only on request. */
int course_variant_selected(const course_args* a, const course_variant* x);

/* The verdict on each variant, on t (course_variant_runs through course_runs_on): runs[i] 1 or 0,
 * each one that does not run printed with the reason (with --list --gpu, every one). Returns how
 * many of the chapter's own kernels (not baselines) run. */
int course_judge(const course_target* t, const course_variants* v, int* runs);

/* Moves the records (size bytes each) whose runs[i] is 1 to the front, in order; returns how many
 * there are. */
int course_keep(void* records, size_t size, int n, const int* runs);

/* The chapter's own verdict, after course_judge, the same rule in every chapter: it runs if `own`
 * of its own kernels run (the library baselines, cudaMemcpy, cuBLAS, CUB, do not count) and, with
 * --variant, if that one (variant_runs) does. Returns EXIT_OK, or EXIT_SKIPPED after a
 * "skipped: ..." line; with --list --gpu it prints "  chapter  runs" or "  chapter  skipped: ...".
 */
int course_chapter_verdict(const course_target* t, int own, const char* variant, int variant_runs);

/* The start of every chapter's main, after course_parse_args:
 *   - a --variant no record has is a usage error (exit 2);
 *   - --list prints the table, and with --gpu NAME each variant's verdict and the chapter's on
 *     that GPU of the table; exit 0;
 *   - otherwise the device is opened and printed (77 without one: course_device_open, `what` is
 *     what needs it), every variant judged on it (one that cannot run said so, with the reason)
 *     and dropped from v, and the chapter's verdict given (course_chapter_verdict: 77 when none of
 *     its own kernels, or not the named one, can run).
 * Returns -1 to go on (dev and target filled, v->n the variants that run), else the exit code. */
int course_variants_begin(const course_cli* cli, const course_args* a, course_variants* v,
                          const char* what, course_device* dev, course_target* target);

/* course_variants_begin in its two halves, for a chapter that prints the CPU part of its lesson
 * between them (before a GPU is asked for): the name and --list; then the device and verdicts. */
int course_variants_list(const course_cli* cli, const course_args* a, const course_variants* v);
int course_variants_open(const course_args* a, course_variants* v, const char* what,
                         course_device* dev, course_target* target);

#ifdef __cplusplus
}
#endif

#endif
