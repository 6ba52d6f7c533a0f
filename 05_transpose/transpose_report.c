/* Chapter 05's results: the benchmark's table, its CSV (plot.gp and the ncu test read the
 * columns by name) and the lesson's summary tables. */
#include "transpose_program.h"
#include "host/csv.h"

#include <stdio.h>
#include <string.h>

void transpose_print_measurements(const measurement* m, int n) {
    printf("\n%-16s %-7s %12s %10s %10s %10s %7s %9s\n", "variant", "type", "shape", "median ms",
           "min ms", "max ms", "GB/s", "% memcpy");
    for (int i = 0; i < n; ++i) {
        char sh[32];
        snprintf(sh, sizeof sh, "%dx%d", m[i].rows, m[i].cols);
        printf("%-16s %-7s %12s %10.4f %10.4f %10.4f %7.0f %8.1f%%%s%s\n", m[i].v->v.name,
               ELEMENT_TYPES[m[i].type].name, sh, m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms,
               m[i].gbps, 100 * m[i].of_memcpy, m[i].in_l2 ? "  (fits in L2)" : "",
               m[i].wrong ? "  WRONG OUTPUT" : "");
    }
}

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"type", CSV_TEXT, 0},
    {"rows", CSV_INT, 0},
    {"cols", CSV_INT, 0},
    {"tile_rows", CSV_INT, 0},
    {"tile_cols", CSV_INT, 0},
    {"threads", CSV_INT, 0},
    {"sweep", CSV_INT, 0},
    {"bytes_moved", CSV_REAL, 0},
    CSV_TIMING_COLUMNS,
    {"launches", CSV_INT, 0},
    {"gbps", CSV_REAL, 1},
    {"of_memcpy", CSV_REAL, 4},
    {"in_l2", CSV_INT, 0},
    {"model_st_wavefronts_per_request", CSV_REAL, 4},
    {"model_ld_wavefronts_per_request", CSV_REAL, 4},
};

void transpose_write_csv(const char* path, const course_device* dev, const char* command_line,
                         const measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, command_line, COLUMNS, (int)(sizeof COLUMNS / sizeof *COLUMNS));
    for (int i = 0; i < n; ++i) {
        const transpose_variant* x = m[i].v;
        const element_type* type = &ELEMENT_TYPES[m[i].type];
        const transpose_build* b = &x->of_type[m[i].type];
        csv_text(&t, "variant", x->v.name);
        csv_text(&t, "type", type->name);
        csv_int(&t, "rows", m[i].rows);
        csv_int(&t, "cols", m[i].cols);
        csv_int(&t, "tile_rows", x->tile_rows);
        csv_int(&t, "tile_cols", x->tile_cols);
        csv_int(&t, "threads", x->v.needs.threads);
        csv_int(&t, "sweep", x->sweep);
        csv_real(&t, "bytes_moved", 2.0 * m[i].rows * m[i].cols * type->bytes);
        csv_timing(&t, &m[i].t);
        csv_int(&t, "launches", m[i].t.launches);
        csv_real(&t, "gbps", m[i].gbps);
        csv_real(&t, "of_memcpy", m[i].of_memcpy);
        csv_int(&t, "in_l2", m[i].in_l2);
        csv_real(&t, "model_st_wavefronts_per_request", b->modelled ? b->model.st : -1.0);
        csv_real(&t, "model_ld_wavefronts_per_request", b->modelled ? b->model.ld : -1.0);
        csv_end_row(&t);
    }
    csv_table_close(&t);
    printf("wrote %s\n", path);
}

static const measurement* lookup(const measurement* m, int n, const transpose_variant* x, int type,
                                 shape s) {
    for (int i = 0; i < n; ++i)
        if (m[i].v == x && m[i].type == type && m[i].rows == s.rows && m[i].cols == s.cols)
            return &m[i];
    return NULL;
}

/* One table: a row per variant (the sweep's, vec among them, or the others), a column per type
 * and sweep shape. */
static void summary_table(const transpose_variant* v, int n, int sweep_rows, const measurement* m,
                          int n_m, const shape* s, int n_s) {
    printf("\n| %s |", sweep_rows ? "kernel 7: tile, threads" : "variant");
    for (int t = 0; t < N_TYPES; ++t)
        for (int k = 0; k < n_s; ++k)
            printf(" %s %dx%d |", ELEMENT_TYPES[t].name, s[k].rows, s[k].cols);
    printf("\n| --- |");
    for (int k = 0; k < N_TYPES * n_s; ++k) printf(" ---: |");
    printf("\n");
    for (int i = 0; i < n; ++i) {
        const transpose_variant* x = &v[i];
        if (x->sweep != sweep_rows && !(sweep_rows && !strcmp(x->v.name, "vec"))) continue;
        if (sweep_rows)
            printf("| %dx%d, %d%s |", x->tile_rows, x->tile_cols, x->v.needs.threads,
                   x->sweep ? "" : " (vec)");
        else
            printf("| %s |", x->v.name);
        for (int t = 0; t < N_TYPES; ++t)
            for (int k = 0; k < n_s; ++k) {
                const measurement* r = lookup(m, n_m, x, t, s[k]);
                if (r)
                    printf(" %.0f (%.1f%%) |", r->gbps, 100 * r->of_memcpy);
                else
                    printf(" - |");
            }
        printf("\n");
    }
}

void transpose_print_summary(const course_device* dev, const transpose_variant* v, int n,
                             const measurement* m, int n_m, const course_args* a) {
    course_summary_header(dev, "05_transpose");
    shape all[16], s[16];
    int sweep[16], n_s = 0, n_all = transpose_bench_shapes(a, all, sweep);
    for (int k = 0; k < n_all; ++k)
        if (sweep[k]) s[n_s++] = all[k];
    printf("GB/s (bytes read + written) and, in brackets, the share of cudaMemcpy's speed at the\n"
           "same size, measured in this run:\n");
    summary_table(v, n, 0, m, n_m, s, n_s);
    printf("\nThe sweep (kernel 7's tile, rows x columns of the input, and threads per block):\n");
    summary_table(v, n, 1, m, n_m, s, n_s);
}
