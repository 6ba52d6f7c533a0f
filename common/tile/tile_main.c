#include "tile/tile_main.h"

#include "host/check.h"
#include "host/csv.h"
#include "host/variant.h"
#include "tile/tile_bench.h"
#include "tile/tile_model.h"

#include <stdlib.h>

void tile_prepare(tile_variant* all, int n_all) {
    for (int i = 0; i < n_all; ++i) {
        tile_variant* x = &all[i];
        /* Names end up in the CSV: check them here, on any machine, not after the benchmark. */
        csv_field(x->v.name);
        csv_field(x->v.description);
        if (!x->against || !tile_find(all, n_all, x->against))
            die("%s: measured against '%s', no variant of the table", x->v.name,
                x->against ? x->against : "(none)");
        x->v.kernel = x->tile.kernel;
        x->v.needs.threads = TILE_THREADS;
        tile_model_of(x, &x->model);
    }
}

void tile_print(const tile_variant* r, int n) {
    printf("\n%-18s %-30s %6s %7s %8s %10s %8s %9s %9s %8s\n", "variant", "layout", "smem B",
           "col wf", "row wf", "median ms", "ns/load", "speedup", "model", "meas/");
    printf("%-18s %-30s %6s %7s %8s %10s %8s %9s %9s %8s\n", "", "", "", "(ideal)", "(ideal)", "",
           "per SM", "vs base", "speedup", "model");
    for (int i = 0; i < n; ++i) {
        char col[16], row[16];
        snprintf(col, sizeof col, "%d (%d)", r[i].model.ld, r[i].model.ld_ideal);
        snprintf(row, sizeof row, "%d (%d)", r[i].model.st, r[i].model.st_ideal);
        printf("%-18s %-30s %6u %7s %8s %10.4f %8.3f %9.2f %9.2f %8.3f\n", r[i].v.name,
               r[i].v.description, r[i].tile.slots * r[i].tile.elem_bytes, col, row,
               r[i].m.t.median_ms, r[i].m.ns_per_load, r[i].speedup, r[i].model_speedup,
               r[i].speedup / r[i].model_speedup);
    }
}

static const csv_column CSV_COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"layout", CSV_TEXT, 0},
    {"elem_bytes", CSV_INT, 0},
    {"rows", CSV_INT, 0},
    {"cols", CSV_INT, 0},
    {"smem_bytes", CSV_INT, 0},
    {"model_col_wavefronts", CSV_INT, 0},
    {"ideal_col_wavefronts", CSV_INT, 0},
    {"model_row_wavefronts", CSV_INT, 0},
    {"ideal_row_wavefronts", CSV_INT, 0},
    CSV_TIMING_COLUMNS,
    {"ns_per_load", CSV_REAL, 4},
    {"baseline", CSV_TEXT, 0},
    {"speedup", CSV_REAL, 4},
    {"model_speedup", CSV_REAL, 4},
    {"launches", CSV_INT, 0},
    /* what the ncu test holds the counters to: the column loads and the row stores */
    {"model_ld_wavefronts_per_request", CSV_INT, 0},
    {"model_st_wavefronts_per_request", CSV_INT, 0},
    {"store_bytes", CSV_INT, 0}};

void tile_write_csv(const char* path, const course_device* dev, const char* command_line,
                    const tile_variant* r, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, command_line, CSV_COLUMNS,
                   (int)(sizeof CSV_COLUMNS / sizeof CSV_COLUMNS[0]));
    for (int i = 0; i < n; ++i) {
        const tile_variant* x = &r[i];
        csv_text(&t, "variant", x->v.name);
        csv_text(&t, "layout", x->v.description);
        csv_int(&t, "elem_bytes", x->tile.elem_bytes);
        csv_int(&t, "rows", x->tile.rows);
        csv_int(&t, "cols", x->tile.cols);
        csv_int(&t, "smem_bytes", x->tile.slots * x->tile.elem_bytes);
        csv_int(&t, "model_col_wavefronts", x->model.ld);
        csv_int(&t, "ideal_col_wavefronts", x->model.ld_ideal);
        csv_int(&t, "model_row_wavefronts", x->model.st);
        csv_int(&t, "ideal_row_wavefronts", x->model.st_ideal);
        csv_timing(&t, &x->m.t);
        csv_real(&t, "ns_per_load", x->m.ns_per_load);
        csv_text(&t, "baseline", x->against);
        csv_real(&t, "speedup", x->speedup);
        csv_real(&t, "model_speedup", x->model_speedup);
        csv_int(&t, "launches", x->m.launches);
        csv_int(&t, "model_ld_wavefronts_per_request", x->model.ld);
        csv_int(&t, "model_st_wavefronts_per_request", x->model.st);
        csv_int(&t, "store_bytes", x->tile.vec * x->tile.elem_bytes);
        csv_end_row(&t);
    }
    csv_table_close(&t);
}

/* The variants of all[0..n) this run measures: the one named with --variant, else every one;
 * and, unless only checking, each one's `against` (a speedup needs it measured in the same
 * run). Returns how many are in sel (room for n). */
static int select_variants(const course_args* a, const tile_variant* all, int n,
                           tile_variant* sel) {
    int n_sel = 0;
    for (int i = 0; i < n; ++i)
        if (course_variant_selected(a, &all[i].v)) sel[n_sel++] = all[i];
    for (int i = 0; !a->check && i < n_sel; ++i) {
        const tile_variant* base = tile_find(all, n, sel[i].against);
        if (base && !tile_find(sel, n_sel, sel[i].against)) sel[n_sel++] = *base;
    }
    return n_sel;
}

int tile_main(const tile_chapter* ch, tile_variant* all, int n_all, int argc, char** argv) {
    course_args args;
    int rc = course_parse_args(ch->cli, argc, argv, &args);
    if (rc >= 0) return rc;
    tile_prepare(all, n_all);
    if (ch->claims) ch->claims(all, n_all);
    course_variants table = course_variants_of(all, sizeof *all, n_all);
    const int lesson = !args.check && !args.bench && !args.list;
    /* The CPU part first, also on a machine without a GPU; an unknown --variant is
     * course_variants_begin's usage error. */
    if (!args.list && (!args.variant || course_find_variant(&table, args.variant) >= 0)) {
        if (lesson) ch->lesson(all, n_all);
        if (args.csv) {
            char path[COURSE_PATH_MAX];
            FILE* f = tile_bank_maps_open(args.csv, path, sizeof path);
            ch->bank_maps(f, all, n_all);
            csv_close(f, path);
        }
    }
    course_device dev;
    course_target target;
    rc = course_variants_begin(ch->cli, &args, &table, ch->what, &dev, &target);
    if (rc >= 0) return rc;

    tile_variant* sel = (tile_variant*)malloc((size_t)table.n * sizeof *sel);
    if (!sel) die("out of host memory");
    const int n = select_variants(&args, all, table.n, sel);
    rc = tile_run(sel, n, &dev, args.check || lesson, !args.check, (int)args.size, (int)args.reps,
                  args.seed);
    if (!args.check) {
        tile_print(sel, n);
        if (args.csv) tile_write_csv(args.csv, &dev, args.command_line, sel, n);
        if (lesson) ch->summary(&dev, sel, n);
    }
    free(sel);
    return rc;
}
