#include "model/swizzle_tile.h"

#include "model/layout.h"
#include "model/smem_model.h"

#include <stdlib.h>

void swizzle_bit_picture(int b, int m, int s, char* out, size_t len) {
    int top = m + b + (s < 0 ? -s : s), y0 = m + (s > 0 ? s : 0), z0 = m - (s < 0 ? s : 0);
    size_t n = 0;
    for (int bit = top - 1; bit >= 0 && n + 1 < len; --bit)
        out[n++] = bit >= y0 && bit < y0 + b   ? 'Y'
                   : bit >= z0 && bit < z0 + b ? 'Z'
                   : bit < m                   ? 'm'
                                               : '.';
    out[n] = '\0';
}

unsigned swizzle_tile_slot(const swizzle_tile* t, unsigned r, unsigned c) {
    return layout_swizzle(r * t->row_elems + c, t->b, t->m, t->s);
}

int swizzle_tile_units_contiguous(const swizzle_tile* t) {
    for (unsigned r = 0; r < t->rows; ++r)
        for (unsigned c = 0; c < t->row_elems; c += t->unit_elems) {
            unsigned first = swizzle_tile_slot(t, r, c);
            if (first % t->unit_elems) return 0;
            for (unsigned j = 1; j < t->unit_elems; ++j)
                if (swizzle_tile_slot(t, r, c + j) != first + j) return 0;
        }
    return 1;
}

int swizzle_tile_bijective(const swizzle_tile* t) {
    unsigned n = t->rows * t->row_elems;
    unsigned char* used = (unsigned char*)calloc(n, 1);
    int ok = used != NULL;
    for (unsigned r = 0; ok && r < t->rows; ++r)
        for (unsigned c = 0; ok && c < t->row_elems; ++c) {
            unsigned x = swizzle_tile_slot(t, r, c);
            ok = x < n && !used[x];
            if (ok) used[x] = 1;
        }
    free(used);
    return ok;
}

int swizzle_tile_worst(const swizzle_tile* t, int along_column, int* ideal) {
    unsigned units = t->row_elems / t->unit_elems, width = t->elem_bytes * t->unit_elems;
    int worst = 0;
    *ideal = 0;
    for (unsigned k = 0; k < (along_column ? units : t->rows); ++k)
        for (unsigned r0 = 0; r0 < (along_column ? t->rows : 1u); r0 += SMEM_WARP) {
            smem_access a = smem_strided(width, SMEM_LOAD, 1, 0);
            a.mask = 0;
            for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
                unsigned r = along_column ? r0 + lane : k, u = along_column ? k : lane;
                if (r >= t->rows || u >= units) continue;
                a.mask |= 1u << lane;
                a.offset[lane] = swizzle_tile_slot(t, r, u * t->unit_elems) * t->elem_bytes;
            }
            smem_report rep;
            if (smem_analyze(&a, &rep)) return -1;
            if (rep.wavefronts > worst) worst = rep.wavefronts, *ideal = rep.ideal;
        }
    return worst;
}

/* The rows one ldmatrix.x4 takes: 16 rows at 2 units, or 32 rows at the one unit of a row. */
static unsigned ldmatrix_rows(const swizzle_tile* t) {
    return t->row_elems / t->unit_elems > 1 ? SMEM_WARP / 2 : SMEM_WARP;
}

void swizzle_tile_ldmatrix_row(const swizzle_tile* t, unsigned r0, unsigned c, unsigned lane,
                               unsigned* r, unsigned* u) {
    const unsigned rows = ldmatrix_rows(t);
    *r = r0 + lane % rows;
    *u = c + lane / rows;
}

smem_access swizzle_tile_ldmatrix_access(const swizzle_tile* t, unsigned r0, unsigned c) {
    smem_access a = smem_strided(16, SMEM_LDMATRIX, 1, 0);
    for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
        unsigned r, u;
        swizzle_tile_ldmatrix_row(t, r0, c, lane, &r, &u);
        a.offset[lane] = swizzle_tile_slot(t, r, u * t->unit_elems) * t->elem_bytes;
    }
    return a;
}

int swizzle_tile_worst_ldmatrix(const swizzle_tile* t, int* ideal) {
    const unsigned units = t->row_elems / t->unit_elems, rows = ldmatrix_rows(t),
                   cols = SMEM_WARP / rows;
    if (t->elem_bytes * t->unit_elems != 16) return -1;
    int worst = 0;
    *ideal = 0;
    for (unsigned r0 = 0; r0 + rows <= t->rows; r0 += 8)
        for (unsigned c = 0; c + cols <= units; ++c) {
            smem_access a = swizzle_tile_ldmatrix_access(t, r0, c);
            smem_report rep;
            if (smem_analyze(&a, &rep)) return -1;
            if (rep.wavefronts > worst) worst = rep.wavefronts, *ideal = rep.ideal;
        }
    return *ideal ? worst : -1; /* -1: too few rows for one ldmatrix.x4 */
}
