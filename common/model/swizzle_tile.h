/* A tile under a Swizzle<B,M,S> (layout_swizzle) and the model's verdict on it: rows of
 * row_elems elements of elem_bytes bytes, element (r, c) at layout_swizzle(r * row_elems + c),
 * accessed unit_elems elements at a time. Shared by swizzlecalc, chapter 04 and its test. */
#ifndef COURSE_SWIZZLE_TILE_H
#define COURSE_SWIZZLE_TILE_H

#include "model/smem_model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned elem_bytes, unit_elems, row_elems, rows;
    int b, m, s;
} swizzle_tile;

/* The swizzle's bit picture, top bit first, into out (at least 33 bytes): Y for the bits XORed
 * in, Z for the bits they change, m for the kept unit, . for the rest: "YYY...ZZZ". */
void swizzle_bit_picture(int b, int m, int s, char* out, size_t len);

/* Where element (r, c) is stored, in elements. */
unsigned swizzle_tile_slot(const swizzle_tile* t, unsigned r, unsigned c);

/* 1 if every aligned unit of unit_elems elements lands on one aligned unit, in order. */
int swizzle_tile_units_contiguous(const swizzle_tile* t);

/* 1 if the tile's rows * row_elems offsets are a permutation of themselves. */
int swizzle_tile_bijective(const swizzle_tile* t);

/* The most wavefronts any column read (lane i: unit c of row r0 + i, for every c and every 32
 * rows r0) or row read (lane i: unit i of row r, lanes past the row idle) needs, with its
 * ideal in *ideal; -1 if a unit is not aligned to its width (no single access can read it). */
int swizzle_tile_worst(const swizzle_tile* t, int along_column, int* ideal);

/* The tile row *r and unit *u of the 16-byte row that lane gives to an ldmatrix.x4 at row r0,
 * unit c (swizzle_tile_worst_ldmatrix's access): row r0 + lane % 16 at unit c + lane / 16 (mma's
 * A operand: matrix lane / 8 is rows r0 + 8 * (lane / 8 % 2) .., unit c + lane / 16), or, with
 * one unit a row, row r0 + lane. */
void swizzle_tile_ldmatrix_row(const swizzle_tile* t, unsigned r0, unsigned c, unsigned lane,
                               unsigned* r, unsigned* u);

/* That ldmatrix.x4: each lane's byte offset, the row swizzle_tile_ldmatrix_row gives it. */
smem_access swizzle_tile_ldmatrix_access(const swizzle_tile* t, unsigned r0, unsigned c);

/* The most wavefronts any ldmatrix.x4 (or .x4.trans: the same rows) over the tile needs, the
 * model's rule 4, with its ideal (4) in *ideal: lane l gives the 16-byte row r0 + l % 16 at unit
 * c + l / 16, for every r0 a multiple of 8 and every unit c (mma's A operand at (m0, k0), or its
 * B operand stored [k][n]); with one unit a row, lane l gives row r0 + l. -1 if a unit is not
 * 16 bytes, or not aligned, or the tile has too few rows for one access (16; 32 at one unit). */
int swizzle_tile_worst_ldmatrix(const swizzle_tile* t, int* ideal);

#ifdef __cplusplus
}
#endif

#endif
