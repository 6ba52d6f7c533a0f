/* Running a tile_transpose variant (tile_transpose.cuh) the same way in every chapter: the
 * model's prediction for its row and column accesses, a correctness check against the CPU on
 * fresh random tiles, the benchmark, and the bank map for the pictures. */
#ifndef COURSE_TILE_BENCH_H
#define COURSE_TILE_BENCH_H

#include "host/bench.h"
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"

#include <stddef.h>
#include <stdio.h>

/* One layout of one tile, with the kernel instantiated for it (tile_variant_of builds it). */
typedef struct {
    const char* name;   /* "w4_pad1" */
    const char* layout; /* "row stride 33" */
    unsigned elem_bytes, rows, cols, slots;
    unsigned vec;        /* elements per row store: its width is vec * elem_bytes */
    unsigned row_stores; /* store instructions per thread in the row phase */
    unsigned (*slot)(unsigned row, unsigned col); /* the layout's index, on the CPU */
    /* The kernel's row phase: lane's group in warp's k-th store (chunk in elements, and the
     * row and column of the group's first element). */
    void (*row_store)(unsigned warp, unsigned k, unsigned lane, unsigned* chunk, unsigned* row,
                      unsigned* col);
    const void* kernel;
    void (*launch)(int blocks, const void* in, void* out, int iters, unsigned* sums);
    /* Compares out and sums with the CPU's transpose and sums; returns the wrong elements. */
    size_t (*verify)(const void* in, const void* out, const unsigned* sums, int blocks, int iters);
} tile_variant;

/* The model's wavefronts per warp instruction: the column access (lane = row) that the loads
 * make, and the row stores (lane = the next group of vec elements of a row), with their ideal
 * counts. */
typedef struct {
    int ld, ld_ideal, st, st_ideal;
} tile_model;

/* Fills m; dies if two columns (or two row stores) of the layout cost different wavefronts,
 * since then one number per kernel would not describe it, or if the layout splits a row group
 * across vec-element chunks (no single store could write it). */
void tile_model_of(const tile_variant* v, tile_model* m);

/* Runs the variant on random tiles drawn from *seed (advanced) at small shapes (1 and 3 blocks,
 * 1 and 2 loop iterations), outputs poisoned first. Returns the number of wrong elements. */
size_t tile_check(const tile_variant* v, unsigned long long* seed);

typedef struct {
    bench_result t;
    int blocks, launches;
    double ns_per_load; /* per warp-wide column load on one SM: median time / loads per SM */
    size_t wrong;       /* wrong elements in the benchmark's own output */
} tile_measurement;

/* Times `iters` loop iterations on one full wave of blocks (warm-up 2, timed_reps
 * repetitions) on random tiles drawn from *seed, then verifies the last output. */
tile_measurement tile_bench(const tile_variant* v, const course_device* dev, int iters,
                            int timed_reps, unsigned long long* seed);

/* Bank maps for plot.gp: tile_bank_maps_open opens the file beside a chapter's CSV
 * ("x.csv" -> "x_banks.csv", course_side_path with TILE_BANK_MAPS, its name left in path) and
 * writes the header; each tile_write_bank_map adds one picture, the bank of every element of the
 * tile. Close with csv_close. A tile chapter's course_cli lists TILE_BANK_MAPS among its
 * side_files, so that the parser checks the file can be written. */
#define TILE_BANK_MAPS "_banks"

FILE* tile_bank_maps_open(const char* csv, char* path, size_t len);
void tile_write_bank_map(FILE* f, const tile_variant* v, const char* picture);

/* One variant's row in a chapter's tables: model, measurement, and the comparison with the
 * variant it is measured against (`baseline`, e.g. the unpadded tile of the same width). */
typedef struct {
    tile_variant v;
    const char* baseline;
    tile_model model;
    tile_measurement m;
    double model_speedup; /* baseline wavefronts / these wavefronts, column loads */
    double speedup;       /* baseline median time / this median time */
} tile_result;

/* Picks the variants named `name` (all if NULL) from all[0..n_all) into sel, and, when
 * with_baselines, adds each picked variant's baseline if it is missing (a speedup needs its
 * baseline measured in the same run). Returns how many are in sel; 0 for an unknown name. */
int tile_select(const tile_result* all, int n_all, const char* name, int with_baselines,
                tile_result* sel);

/* The variant called name in r[0..n), or NULL. */
const tile_result* tile_find(const tile_result* r, int n, const char* name);

/* The lesson's model table: layout, bytes, column read and row store wavefronts. */
void tile_model_table(const tile_result* r, int n);

/* --list: one line per variant, with the model's predictions. */
void tile_list(const tile_result* r, int n);

/* Runs the selected variants (their model already filled in by tile_model_of): the check (if
 * check), then the benchmark (if bench, `iters` loop iterations, `timed_reps` repetitions), and
 * fills the speedups; the random tiles come from `seed`, which it prints. Prints a line per
 * failing variant; returns EXIT_OK or EXIT_CHECK_FAILED. */
int tile_run(tile_result* r, int n, const course_device* dev, int check, int bench, int iters,
             int timed_reps, unsigned long long seed);

/* The measurement table, and the CSV (columns the ncu test and plot.gp read). */
void tile_print(const tile_result* r, int n);
void tile_write_csv(const char* path, const course_device* dev, const char* command_line,
                    const tile_result* r, int n);

/* A chapter built on the tile kernel: its command line, and what it adds to the shared run. */
typedef struct {
    const course_cli* cli;
    const char* what; /* "the padding benchmark": named when the GPU is missing */
    /* The CPU part of the lesson: model tables, worked warps (every variant in all). */
    void (*lesson)(const tile_result* all, int n_all);
    /* The pictures for plot.gp: tile_write_bank_map calls into f. */
    void (*bank_maps)(FILE* f, const tile_result* all, int n_all);
    /* The lesson's GPU part after the benchmark, and its summary (selected variants). */
    void (*summary)(const course_device* dev, const tile_result* sel, int n);
} tile_chapter;

/* A tile chapter's main(): command line, --list, the lesson tables, the bank maps beside
 * --csv, the check (--check, lesson), the benchmark and its table and CSV (--bench, lesson),
 * then the summary (lesson). all[0..n_all) are the chapter's variants. Returns the exit code. */
int tile_main(const tile_chapter* ch, const tile_result* all, int n_all, int argc, char** argv);

#endif
