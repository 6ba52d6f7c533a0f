/* Chapter 08, part 2's run (sgemm.h): the lesson's tables, the check, the benchmark, the summary
 * (the GEMM harness's) and the program's main CSV. */
#include "sgemm.h"
#include "gemm/harness.h"
#include "host/check.h"
#include "host/csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const sgemm_variant* sgemm_at(const course_variants* t, int i) {
    return (const sgemm_variant*)course_variant_at(t, i);
}

/* ---------------------------------------------------------------- the lesson's tables */

void sgemm_print_lesson(const course_variants* t) {
    for (int i = 0; i < t->n; ++i) {
        const course_variant* x = &sgemm_at(t, i)->g.v;
        if (!sgemm_at(t, i)->g.sweep)
            printf("  %2d %-20s %s\n", x->number, x->name, x->description);
    }
    printf("     the sweep (async_bk*, wide_2/4_swizzled): --list\n");

    printf("\nShared memory, by the bank model: wavefronts per request of each access per K-slice\n"
           "(ideal in brackets: every lane on its own consecutive element; a broadcast can go\n"
           "below it).\n");
    printf("%-17s %3s %6s %-22s %-26s %5s %15s\n", "kernel", "BK", "stages", "A layout", "access",
           "bytes", "wavefronts");
    for (int i = 0; i < t->n; ++i) {
        const sgemm_variant* x = sgemm_at(t, i);
        if (!x->modelled || x->g.sweep) continue;
        int shown = 0;
        for (int a = 0; a < x->model.n; ++a) {
            const gemm_access_cost* c = &x->model.access[a];
            if (x->tma && c->is_store) continue; /* the TMA writes through no LSU instruction */
            if (shown++)
                printf("%-17s %3s %6s %-22s", "", "", "", "");
            else
                printf("%-17s %3d %6d %-22s", x->g.v.name, x->bk, x->stages, x->a_name);
            printf(" %-26s %5d %6.2f (%5.2f)\n", c->what, c->width, c->wavefronts, c->ideal);
        }
    }
}

/* ---------------------------------------------------------------- the CSV */

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"type", CSV_TEXT, 0},
    {"kernel", CSV_INT, 0},
    {"family", CSV_TEXT, 0},
    {"M", CSV_INT, 0},
    {"N", CSV_INT, 0},
    {"K", CSV_INT, 0},
    {"sweep", CSV_INT, 0},
    {"bk", CSV_INT, 0},
    {"stages", CSV_INT, 0},
    {"a_layout", CSV_INT, 0},
    {"tn", CSV_INT, 0},
    {"threads", CSV_INT, 0},
    {"dynamic_smem", CSV_INT, 0},
    GEMM_CSV_RESULT_COLUMNS,
    {"model_st_wavefronts_per_request", CSV_REAL, 4},
    {"model_ld_wavefronts_per_request", CSV_REAL, 4},
};

/* The model's stores go to the CSV only for chapter 06's kernel: ncu counts cp.async's and the
 * TMA's shared-memory writes as no store instruction (README), so those rows claim -1. */
static void write_csv(const char* path, const course_device* dev, const char* cmd,
                      const gemm_measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, cmd, COLUMNS, sizeof COLUMNS / sizeof COLUMNS[0]);
    for (int i = 0; i < n; ++i) {
        /* Every measured record is one of the table's, which begin with their gemm_variant. */
        const sgemm_variant* x = (const sgemm_variant*)m[i].v;
        csv_text(&t, "variant", x->g.v.name);
        csv_text(&t, "type", "float");
        csv_int(&t, "kernel", x->g.v.number);
        csv_text(&t, "family", x->family);
        csv_int(&t, "M", m[i].s.M);
        csv_int(&t, "N", m[i].s.N);
        csv_int(&t, "K", m[i].s.K);
        csv_int(&t, "sweep", x->g.sweep);
        csv_int(&t, "bk", x->bk);
        csv_int(&t, "stages", x->stages);
        csv_int(&t, "a_layout", x->a_layout);
        csv_int(&t, "tn", x->tn);
        csv_int(&t, "threads", x->g.v.needs.threads);
        csv_int(&t, "dynamic_smem", (long long)x->g.v.needs.dynamic_smem);
        gemm_csv_result(&t, &m[i]);
        csv_real(&t, "model_st_wavefronts_per_request",
                 x->modelled && x->ch06.bm ? x->model.st : -1.0);
        csv_real(&t, "model_ld_wavefronts_per_request", x->modelled ? x->model.ld : -1.0);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

/* ---------------------------------------------------------------- the part */

/* The records of t that keep(a, record) says, copied to the front of out (t->n records). */
static course_variants copy_where(const course_variants* t, sgemm_variant* out,
                                  const course_args* a,
                                  int (*keep)(const course_args*, const course_variant*)) {
    int n = 0;
    for (int i = 0; i < t->n; ++i)
        if (keep(a, &sgemm_at(t, i)->g.v)) out[n++] = *sgemm_at(t, i);
    return course_variants_of(out, sizeof out[0], n);
}

/* What the benchmark times: every variant but those run only on request (the trap). */
static int timed(const course_args* a, const course_variant* x) {
    (void)a;
    return !x->on_request;
}

int sgemm_run(const char* program, const course_args* a, const course_device* dev,
              const course_variants* running, int lesson) {
    if (a->variant && !strcmp(a->variant, SGEMM_TRAP))
        return alignment_trap_run(sgemm_at(running, course_find_variant(running, SGEMM_TRAP)));
    sgemm_variant* all = (sgemm_variant*)malloc((running->n + 1) * sizeof *all);
    sgemm_variant* sel = (sgemm_variant*)malloc((running->n + 1) * sizeof *sel);
    if (!all || !sel) die("out of host memory");
    const course_variants table = copy_where(running, all, a, timed);
    gemm_cublas_open();
    gemm_configure(&table);
    if (lesson || a->bench) gemm_print_resources(&table);
    int bad = 0;
    if (a->check || lesson) {
        /* The check: the variant named, else all. */
        const course_variants checked = copy_where(&table, sel, a, course_variant_selected);
        bad = gemm_run_check(program, &checked, a, a->size_given ? (int)a->size : 1024) != EXIT_OK;
    }
    if (!bad && !a->check) {
        static gemm_measurement m[512];
        const int n = gemm_run_bench(program, &table, a, m);
        gemm_print_measurements(m, n);
        for (int i = 0; i < n; ++i) bad |= gemm_wrong(&m[i]);
        if (a->csv) write_csv(a->csv, dev, a->command_line, m, n);
        if (lesson) gemm_print_summary(program, dev, &table, m, n, a);
        if (bad) printf("benchmark: some outputs were WRONG (see above)\n");
    }
    free(all);
    free(sel);
    return bad;
}
