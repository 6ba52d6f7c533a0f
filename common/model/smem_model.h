/* The shared-memory bank model: for one warp-wide shared-memory instruction, which bank each
 * lane touches and how many wavefronts (passes through the 32 banks) the hardware needs.
 *
 * Shared memory is 32 banks of 4 bytes: byte offset b lives in bank (b / 4) % 32, and each bank
 * delivers one 4-byte word per wavefront. One wavefront therefore moves at most 128 bytes.
 * The rules in smem_model.c are calibrated against Nsight Compute on an H200
 * (common/calibration/), and a CPU test holds the model to every measured row. */
#ifndef COURSE_SMEM_MODEL_H
#define COURSE_SMEM_MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

enum { SMEM_BANKS = 32, SMEM_BANK_BYTES = 4, SMEM_WARP = 32, SMEM_WAVEFRONT_BYTES = 128 };

/* LDMATRIX and STMATRIX (ldmatrix / stmatrix .m8n8 .x1, .x2, .x4, 16-bit elements): lane l gives
 * the 16-byte row l % 8 of matrix l / 8; width 16, mask 0xff, 0xffff or 0xffffffff (.x1, .x2,
 * .x4). Rule 4 (smem_model.c), calibrated on the H200 (calibration/h200_matrix.csv). */
typedef enum { SMEM_LOAD = 0, SMEM_STORE = 1, SMEM_LDMATRIX = 2, SMEM_STMATRIX = 3 } smem_op;

/* 1 for ldmatrix and stmatrix. */
static inline int smem_is_matrix_op(smem_op op) {
    return op == SMEM_LDMATRIX || op == SMEM_STMATRIX;
}

/* A calibration pattern's op: "load", "store", or "ldmatrix" / "stmatrix" with ".x1", ".x2" or
 * ".x4" and an optional ".trans". Sets *op, *matrices (0 for load and store) and *trans; returns
 * 0, or -1 (nothing set) for anything else. */
int smem_parse_op(const char* s, smem_op* op, unsigned* matrices, int* trans);

/* One warp instruction: each lane's byte offset, the access width, load or store, and which
 * lanes are active (bit i = lane i). Offsets of inactive lanes are ignored. */
typedef struct {
    unsigned offset[SMEM_WARP];
    unsigned width; /* 1, 2, 4, 8 or 16 bytes */
    smem_op op;
    unsigned mask;
} smem_access;

typedef struct {
    int wavefronts; /* what the hardware needs */
    int ideal;      /* the same instruction with lane i at i * width: the conflict-free baseline */
    int excess;     /* wavefronts - ideal, never negative (a broadcast can need fewer) */
    int words_in_bank[SMEM_BANKS];      /* distinct words each bank delivers, summed over groups */
    unsigned lanes_in_bank[SMEM_BANKS]; /* lanes that touch each bank (bit i = lane i) */
    int group_lanes;                    /* lanes served together: 32, 16 or 8 */
    int group_wavefronts[SMEM_WARP];    /* wavefronts of each group, SMEM_WARP / group_lanes */
} smem_report;

/* Greatest common divisor: a stride s of 4-byte words puts gcd(s, 32) lanes on each bank. */
static inline unsigned smem_gcd(unsigned a, unsigned b) {
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Bank of a byte offset. */
static inline unsigned smem_bank(unsigned byte_offset) {
    return (byte_offset / SMEM_BANK_BYTES) % SMEM_BANKS;
}

/* NULL if the access is well formed, else a one-line reason (bad width, misaligned offset). */
const char* smem_invalid(const smem_access* a);

/* Fills the report; returns 0, or -1 for an access that smem_invalid rejects. */
int smem_analyze(const smem_access* a, smem_report* r);

/* Shorthand: the wavefronts of a, or -1 if it is invalid. */
int smem_wavefronts(const smem_access* a);

/* The access in which lane i touches base + i * stride_elems * width (all lanes active). */
smem_access smem_strided(unsigned width, smem_op op, unsigned stride_elems, unsigned base);

/* Where element (row, col) of a tile sits, in elements; ctx is the caller's. */
typedef unsigned (*smem_slot_fn)(unsigned row, unsigned col, const void* ctx);

/* A warp walking a rows x cols tile of width-byte elements stored at slot(row, col, ctx):
 * along a column, lane i touches (r0 + i, c0); along a row, (r0, c0 + i). Lanes past the tile's
 * edge stay inactive. */
smem_access smem_tile_access(unsigned width, smem_op op, unsigned rows, unsigned cols,
                             int along_column, unsigned r0, unsigned c0, smem_slot_fn slot,
                             const void* ctx);

#ifdef __cplusplus
}
#endif

#endif
