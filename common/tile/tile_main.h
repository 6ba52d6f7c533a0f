/* A chapter built on the tile kernel (tile_transpose.cuh): its table of tile_variant records,
 * what it adds to the shared run, and the main() every tile chapter shares. */
#ifndef COURSE_TILE_MAIN_H
#define COURSE_TILE_MAIN_H

#include "host/cli.h"
#include "host/device.h"
#include "tile/tile_variant.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const course_cli* cli;
    const char* what; /* "the padding benchmark": named when the GPU is missing */
    /* The lesson's claims on the model, held on every run (--list too): dies if one fails.
     * NULL: none. */
    void (*claims)(const tile_variant* all, int n_all);
    /* The CPU part of the lesson: model tables, worked warps (every variant in all). */
    void (*lesson)(const tile_variant* all, int n_all);
    /* The pictures for plot.gp: tile_write_bank_map calls into f. */
    void (*bank_maps)(FILE* f, const tile_variant* all, int n_all);
    /* The lesson's GPU part after the benchmark, and its summary (the variants run). */
    void (*summary)(const course_device* dev, const tile_variant* sel, int n);
} tile_chapter;

/* A tile chapter's main(), on its table all[0..n_all): the command line; each record completed
 * (tile_prepare); the claims; the lesson's tables and the bank maps beside --csv; then
 * course_variants_begin (--variant, --list, the GPU, what runs on it); the variants selected,
 * each with the one it is measured against (the speedup needs both in the same run; not for
 * --check); the check (--check, lesson), the benchmark and its table and CSV (--bench, lesson),
 * then the summary (lesson). Returns the exit code. */
int tile_main(const tile_chapter* ch, tile_variant* all, int n_all, int argc, char** argv);

/* Completes each record of a table: v.kernel and v.needs from its tile, its model; dies if a
 * name or layout cannot be a CSV field or `against` names no variant of the table. */
void tile_prepare(tile_variant* all, int n_all);

/* The measurement table, and the CSV (columns the ncu test and plot.gp read). */
void tile_print(const tile_variant* r, int n);
void tile_write_csv(const char* path, const course_device* dev, const char* command_line,
                    const tile_variant* r, int n);

#ifdef __cplusplus
}
#endif

#endif
