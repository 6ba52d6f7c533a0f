/* Running a tile_transpose variant (tile_transpose.cuh) the same way in every chapter: the
 * model's prediction for its row and column accesses, a correctness check against the CPU on
 * fresh random tiles, the benchmark, and the bank map for the pictures. */
#ifndef COURSE_TILE_BENCH_H
#define COURSE_TILE_BENCH_H

#include "bench.h"
#include "check.h"
#include "device.h"

#include <stddef.h>
#include <stdio.h>

/* One layout of one tile, with the kernel instantiated for it (tile_variant_of builds it). */
typedef struct {
    const char* name;   /* "w4_pad1" */
    const char* layout; /* "row stride 33" */
    unsigned elem_bytes, rows, cols, slots;
    unsigned (*slot)(unsigned row, unsigned col); /* the layout's index, on the CPU */
    const void* kernel;
    void (*launch)(int blocks, const void* in, void* out, int reps, unsigned* sums);
    /* Compares out and sums with the CPU's transpose and sums; returns the wrong elements. */
    size_t (*verify)(const void* in, const void* out, const unsigned* sums, int blocks, int reps);
} tile_variant;

/* The model's wavefronts per warp instruction: the column access (lane = row) that the loads
 * make, and the row access (lane = column) that the stores make, with their ideal counts. */
typedef struct {
    int ld, ld_ideal, st, st_ideal;
} tile_model;

/* Fills m; dies if two columns (or two rows) of the layout have different bank patterns, since
 * then one number per kernel would not describe it. */
void tile_model_of(const tile_variant* v, tile_model* m);

/* Runs the variant on fresh random tiles at small shapes (1 and 3 blocks, 1 and 2 loop
 * iterations), outputs poisoned first. Returns the number of wrong elements. */
size_t tile_check(const tile_variant* v);

typedef struct {
    bench_result t;
    int blocks, launches;
    double ns_per_load; /* per warp-wide column load on one SM: median time / loads per SM */
    size_t wrong;       /* wrong elements in the benchmark's own output */
} tile_measurement;

/* Times `reps` loop iterations on one full wave of blocks (warm-up 2, timed_reps repetitions),
 * then verifies the last output. */
tile_measurement tile_bench(const tile_variant* v, const course_device* dev, int reps,
                            int timed_reps);

/* Bank maps for plot.gp: tile_bank_maps_open opens the file beside a chapter's CSV
 * ("x.csv" -> "x_banks.csv", its name left in path) and writes the header; each
 * tile_write_bank_map adds one picture, the bank of every element of the tile. Close with
 * csv_close. */
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

/* --list: one line per variant, with the model's predictions. */
void tile_list(const tile_result* r, int n);

/* Runs the selected variants: the check (if check), then the benchmark (if bench, `reps` loop
 * iterations, `timed` repetitions) and fills the speedups. Prints a line per failing variant;
 * returns EXIT_OK or EXIT_CHECK_FAILED. */
int tile_run(tile_result* r, int n, const course_device* dev, int check, int bench, int reps,
             int timed);

/* The measurement table, and the CSV (columns the ncu test and plot.gp read). */
void tile_print(const tile_result* r, int n);
void tile_write_csv(const char* path, const course_device* dev, const char* command_line,
                    const tile_result* r, int n);

#endif
