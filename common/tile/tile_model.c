#include "tile/tile_model.h"

#include "host/check.h"
#include "host/cli.h"
#include "host/csv.h"
#include "model/smem_model.h"

static unsigned variant_slot(unsigned row, unsigned col, const void* tile) {
    return ((const tile_kernel*)tile)->slot(row, col);
}

/* The wavefronts of a warp walking the variant's tile along a column (the kernel's loads). */
static int column_wavefronts(const tile_variant* x, unsigned r0, unsigned c, int* ideal) {
    const tile_kernel* k = &x->tile;
    smem_access a =
        smem_tile_access(k->elem_bytes, SMEM_LOAD, k->rows, k->cols, 1, r0, c, variant_slot, k);
    smem_report rep;
    if (smem_analyze(&a, &rep))
        die("%s: element offsets not aligned to %u", x->v.name, k->elem_bytes);
    *ideal = rep.ideal;
    return rep.wavefronts;
}

/* The wavefronts of warp w's k-th row store; dies if a lane's group leaves its chunk. */
static int row_store_wavefronts(const tile_variant* x, unsigned w, unsigned k, int* ideal) {
    const tile_kernel* t = &x->tile;
    smem_access a = smem_strided(t->elem_bytes * t->vec, SMEM_STORE, 1, 0);
    for (unsigned lane = 0; lane < SMEM_WARP; ++lane) {
        unsigned chunk, r, c, seen = 0;
        t->row_store(w, k, lane, &chunk, &r, &c);
        for (unsigned j = 0; j < t->vec; ++j) {
            unsigned s = t->slot(r, c + j);
            if (s / t->vec * t->vec != chunk || (seen >> (s % t->vec) & 1u))
                die("%s: row %u, columns %u..%u do not fill one %u-element chunk", x->v.name, r, c,
                    c + t->vec - 1, t->vec);
            seen |= 1u << (s % t->vec);
        }
        a.offset[lane] = chunk * t->elem_bytes;
    }
    smem_report rep;
    if (smem_analyze(&a, &rep)) die("%s: row stores not aligned", x->v.name);
    *ideal = rep.ideal;
    return rep.wavefronts;
}

void tile_model_of(const tile_variant* x, tile_model* m) {
    const tile_kernel* t = &x->tile;
    m->ld = m->st = -1;
    for (unsigned r0 = 0; r0 < t->rows; r0 += 32)
        for (unsigned c = 0; c < t->cols; ++c) {
            int wf = column_wavefronts(x, r0, c, &m->ld_ideal);
            if (m->ld >= 0 && wf != m->ld)
                die("%s: column %u needs %d wavefronts, column 0 %d", x->v.name, c, wf, m->ld);
            m->ld = wf;
        }
    for (unsigned w = 0; w < TILE_WARPS; ++w)
        for (unsigned k = 0; k < t->row_stores; ++k) {
            int wf = row_store_wavefronts(x, w, k, &m->st_ideal);
            if (m->st >= 0 && wf != m->st)
                die("%s: row store %u of warp %u needs %d wavefronts, the first %d", x->v.name, k,
                    w, wf, m->st);
            m->st = wf;
        }
}

void tile_model_table(const tile_variant* r, int n) {
    printf("\nModel, per warp instruction (ideal in brackets), for every variant:\n");
    printf("%-16s %-30s %10s %12s %18s\n", "variant", "layout", "smem bytes", "column read",
           "row store");
    for (int i = 0; i < n; ++i)
        printf("%-16s %-30s %10u %8d (%d) %2u B: %6d (%d)\n", r[i].v.name, r[i].v.description,
               r[i].tile.slots * r[i].tile.elem_bytes, r[i].model.ld, r[i].model.ld_ideal,
               r[i].tile.vec * r[i].tile.elem_bytes, r[i].model.st, r[i].model.st_ideal);
}

FILE* tile_bank_maps_open(const char* csv, char* path, size_t len) {
    if (course_side_path(csv, TILE_BANK_MAPS, path, len)) die("--csv %s: too long a path", csv);
    FILE* f = fopen(path, "w");
    if (!f) die("cannot write %s", path);
    fprintf(f, "# bank maps: picture,row,col,bank; one block per picture, blocks separated by two\n"
               "# blank lines (gnuplot: index k using 3:2:4)\n");
    return f;
}

void tile_write_bank_map(FILE* f, const tile_variant* x, const char* picture) {
    const tile_kernel* t = &x->tile;
    csv_field(picture);
    for (unsigned r = 0; r < t->rows; ++r)
        for (unsigned c = 0; c < t->cols; ++c)
            fprintf(f, "%s,%u,%u,%u\n", picture, r, c, smem_bank(t->slot(r, c) * t->elem_bytes));
    fprintf(f, "\n\n");
}
