#include "host/variant.h"

#include "host/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

course_variants course_variants_of(void* records, size_t size, int n) {
    course_variants t = {records, size, n};
    return t;
}

course_variant* course_variant_at(const course_variants* t, int i) {
    return (course_variant*)((char*)t->records + (size_t)i * t->size);
}

int course_find_variant(const course_variants* t, const char* name) {
    for (int i = 0; i < t->n; ++i)
        if (!strcmp(course_variant_at(t, i)->name, name)) return i;
    return -1;
}

void course_print_variants(const course_variants* t) {
    for (int i = 0; i < t->n; ++i) {
        const course_variant* x = course_variant_at(t, i);
        printf("  %2d %-20s %s\n", x->number, x->name, x->description);
    }
}

int course_variant_selected(const course_args* a, const course_variant* x) {
    return a->variant ? !strcmp(x->name, a->variant) : !x->on_request;
}

/* The verdict's line, the same in every chapter: for --list --gpu "  runs     NAME  needs 8.0,
 * 98304 bytes, 256 threads" (the arch, "9.0a" for code of that architecture alone, dynamic shared
 * memory and threads a block), with ": why" after a skipped one; at run time nothing for a
 * variant that runs, else "NAME skipped: why". */
static void print_verdict(const course_target* t, const char* name, const course_needs* need,
                          int runs, const char* why) {
    if (t->from_table) {
        const int arch = course_needs_arch(need);
        printf("  %-8s %-20s needs %d.%d%s, %zu bytes, %d threads%s%s\n", runs ? "runs" : "skipped",
               name, arch / 10, arch % 10, need->arch_specific ? "a" : "", need->dynamic_smem,
               need->threads, runs ? "" : ": ", runs ? "" : why);
    } else if (!runs)
        printf("%s skipped: %s\n", name, why);
}

int course_judge(const course_target* t, const course_variants* v, int* runs) {
    int own = 0;
    for (int i = 0; i < v->n; ++i) {
        const course_variant* x = course_variant_at(v, i);
        char why[256];
        runs[i] = course_runs_on(t, x->kernel, &x->needs, why, sizeof why);
        print_verdict(t, x->name, &x->needs, runs[i], why);
        own += runs[i] && !x->baseline;
    }
    return own;
}

int course_keep(void* records, size_t size, int n, const int* runs) {
    int kept = 0;
    for (int i = 0; i < n; ++i)
        if (runs[i]) {
            if (kept != i) memmove((char*)records + kept * size, (char*)records + i * size, size);
            ++kept;
        }
    return kept;
}

int course_chapter_verdict(const course_target* t, int own, const char* variant, int variant_runs) {
    char why[256] = "";
    if (!own)
        snprintf(why, sizeof why, "none of the chapter's own kernels can run on the %s",
                 t->gpu.name);
    else if (variant && !variant_runs)
        snprintf(why, sizeof why, "%s cannot run on the %s", variant, t->gpu.name);
    if (t->from_table)
        printf(*why ? "  chapter  skipped: %s\n" : "  chapter  runs\n", why);
    else if (*why)
        printf("skipped: %s (see above)\n", why);
    return *why ? EXIT_SKIPPED : EXIT_OK;
}

int course_variants_list(const course_cli* cli, const course_args* a, const course_variants* v) {
    if (a->variant && course_find_variant(v, a->variant) < 0)
        return course_usage_error(cli, "no variant '%s' (see --list)", a->variant);
    if (!a->list) return -1;
    course_print_variants(v);
    course_target target;
    if (course_target_of_table(a->gpu, &target)) {
        int* runs = (int*)calloc((size_t)v->n + 1, sizeof *runs);
        if (!runs) die("out of host memory");
        course_chapter_verdict(&target, course_judge(&target, v, runs), NULL, 1);
        free(runs);
    }
    return EXIT_OK;
}

int course_variants_open(const course_args* a, course_variants* v, const char* what,
                         course_device* dev, course_target* target) {
    int rc = course_device_open(dev, 7, 5, what);
    if (rc != EXIT_OK) return rc;
    course_device_print(dev);
    course_target_of_device(dev, target);
    int* runs = (int*)calloc((size_t)v->n + 1, sizeof *runs);
    if (!runs) die("out of host memory");
    const int own = course_judge(target, v, runs);
    const int named_runs = a->variant ? runs[course_find_variant(v, a->variant)] : 1;
    v->n = course_keep(v->records, v->size, v->n, runs);
    free(runs);
    rc = course_chapter_verdict(target, own, a->variant, named_runs);
    return rc == EXIT_OK ? -1 : rc;
}

int course_variants_begin(const course_cli* cli, const course_args* a, course_variants* v,
                          const char* what, course_device* dev, course_target* target) {
    const int rc = course_variants_list(cli, a, v);
    return rc >= 0 ? rc : course_variants_open(a, v, what, dev, target);
}
