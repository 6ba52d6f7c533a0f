/* What the model says of a tile variant's layout: the wavefronts of its column loads and row
 * stores, the lesson's table of them, and the bank of every element for the pictures. */
#ifndef COURSE_TILE_MODEL_H
#define COURSE_TILE_MODEL_H

#include "tile/tile_variant.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills m; dies if two columns (or two row stores) of the layout cost different wavefronts,
 * since then one number per kernel would not describe it, or if the layout splits a row group
 * across vec-element chunks (no single store could write it). */
void tile_model_of(const tile_variant* x, tile_model* m);

/* The lesson's model table: layout, bytes, column read and row store wavefronts. */
void tile_model_table(const tile_variant* r, int n);

/* Bank maps for plot.gp: tile_bank_maps_open opens the file beside a chapter's CSV
 * ("x.csv" -> "x_banks.csv", course_side_path with TILE_BANK_MAPS, its name left in path) and
 * writes the header; each tile_write_bank_map adds one picture, the bank of every element of the
 * tile. Close with csv_close. A tile chapter's course_cli lists TILE_BANK_MAPS among its
 * side_files, so that the parser checks the file can be written. */
#define TILE_BANK_MAPS "_banks"

FILE* tile_bank_maps_open(const char* csv, char* path, size_t len);
void tile_write_bank_map(FILE* f, const tile_variant* x, const char* picture);

#ifdef __cplusplus
}
#endif

#endif
