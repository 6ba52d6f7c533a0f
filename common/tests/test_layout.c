/* The index functions of layout.h, over every layout and shape that chapters 02 and 03 name:
 * each is a bijection on its tile, and its column access (lane i reads row r0 + i) and row
 * access (lane i writes column c0 + i) cost exactly the wavefronts the lessons state, at every
 * column and row, in the calibrated model. */
#include "host/test_util.h"
#include "model/layout.h"
#include "model/smem_model.h"

#include <string.h>

/* A layout under test: rows x cols elements of `width` bytes; slot(r, c) in elements. */
typedef struct {
    const char* name;
    unsigned rows, cols, width, param;
    unsigned (*slot)(unsigned r, unsigned c, unsigned cols, unsigned param);
    int column_wavefronts, row_wavefronts; /* what the lesson says */
} layout_case;

static unsigned plain(unsigned r, unsigned c, unsigned cols, unsigned p) {
    (void)p;
    return layout_plain(r, c, cols);
}
static unsigned padded(unsigned r, unsigned c, unsigned cols, unsigned pad) {
    return layout_padded(r, c, cols, pad);
}
static unsigned xor_(unsigned r, unsigned c, unsigned cols, unsigned p) {
    (void)p;
    return layout_xor(r, c, cols);
}
static unsigned xor_narrow(unsigned r, unsigned c, unsigned cols, unsigned p) {
    (void)p;
    return layout_xor_narrow(r, c, cols);
}
static unsigned index_kind(unsigned r, unsigned c, unsigned cols, unsigned kind) {
    (void)cols;
    return layout_index(r, c, (layout_kind)kind);
}
/* 16-bit elements read in pairs: the word of pair p of row r when the element index is
 * XORed (the textbook mistake); cols counts pairs. */
static unsigned half2_element_xor(unsigned r, unsigned p, unsigned cols, unsigned q) {
    (void)q;
    return r * cols + ((2 * p) ^ r) / 2;
}

enum { MAX_SLOTS = 32 * 64 * 2 };

static int is_bijection(const layout_case* t) {
    static unsigned char used[MAX_SLOTS];
    memset(used, 0, sizeof used);
    for (unsigned r = 0; r < t->rows; ++r)
        for (unsigned c = 0; c < t->cols; ++c) {
            unsigned s = t->slot(r, c, t->cols, t->param);
            if (s >= MAX_SLOTS || used[s]++) return 0;
        }
    return 1;
}

static unsigned case_slot(unsigned r, unsigned c, const void* ctx) {
    const layout_case* t = (const layout_case*)ctx;
    return t->slot(r, c, t->cols, t->param);
}

/* A column walk (lane i at (r0 + i, c0)) or a row walk (lane i at (r0, c0 + i)). */
static int wavefronts(const layout_case* t, int column, unsigned r0, unsigned c0) {
    smem_access a = smem_tile_access(t->width, column ? SMEM_LOAD : SMEM_STORE, t->rows, t->cols,
                                     column, r0, c0, case_slot, t);
    return smem_wavefronts(&a);
}

static void check_case(const layout_case* t) {
    EXPECT(is_bijection(t), "%s is not a bijection", t->name);
    for (unsigned r0 = 0; r0 < t->rows; r0 += 32)
        for (unsigned c = 0; c < t->cols; ++c) {
            int wf = wavefronts(t, 1, r0, c);
            EXPECT(wf == t->column_wavefronts, "%s: column %u (rows %u..) %d wavefronts, lesson %d",
                   t->name, c, r0, wf, t->column_wavefronts);
        }
    for (unsigned r = 0; r < t->rows; ++r)
        for (unsigned c0 = 0; c0 < t->cols; c0 += 32) {
            int wf = wavefronts(t, 0, r, c0);
            EXPECT(wf == t->row_wavefronts, "%s: row %u %d wavefronts, lesson %d", t->name, r, wf,
                   t->row_wavefronts);
        }
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    /* Chapter 02: 32x32 tiles padded by p elements, at 4, 8 and 16 bytes. */
    static const unsigned pads[] = {0, 1, 2, 3, 4, 8, 16};
    static const int column[3][7] = {{32, 1, 2, 1, 4, 8, 16},    /* 4 B */
                                     {32, 2, 4, 2, 8, 16, 32},   /* 8 B */
                                     {32, 4, 8, 4, 16, 32, 32}}; /* 16 B */
    for (unsigned w = 0; w < 3; ++w)
        for (unsigned p = 0; p < 7; ++p) {
            layout_case t = {"padded", 32, 32, 4u << w, pads[p], padded, column[w][p], 1 << w};
            check_case(&t);
        }
    /* Chapter 02's stride table: strides 32..48 of 4-byte words, a column costs gcd(s, 32). */
    for (unsigned s = 32; s <= 48; ++s) {
        unsigned g = smem_gcd(s, 32);
        layout_case t = {"stride table", 32, 32, 4, s - 32, padded, (int)g, 1};
        check_case(&t);
    }
    /* Chapter 03. */
    const layout_case cases[] = {
        {"plain 32x32", 32, 32, 4, 0, plain, 32, 1},
        {"layout_index PLAIN", 32, 32, 4, LAYOUT_PLAIN, index_kind, 32, 1},
        {"layout_index PADDED", 32, 32, 4, LAYOUT_PADDED, index_kind, 1, 1},
        {"layout_index XOR", 32, 32, 4, LAYOUT_XOR, index_kind, 1, 1},
        {"xor 64x32", 64, 32, 4, 0, xor_, 1, 1},
        {"xor 32x64", 32, 64, 4, 0, xor_, 1, 1},
        {"xor 32x16 textbook", 32, 16, 4, 0, xor_, 2, 1},
        {"xor 32x16 fixed", 32, 16, 4, 0, xor_narrow, 1, 1},
        {"half2 pairs, element xor", 32, 32, 4, 0, half2_element_xor, 2, 1},
        {"half2 pairs, pair xor", 32, 32, 4, 0, xor_, 1, 1},
        {"xor 32x32 of 8 B", 32, 32, 8, 0, xor_, 2, 2},
        {"xor 32x32 of 16 B", 32, 32, 16, 0, xor_, 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_case(&cases[i]);

    /* layout_xor_narrow over its whole domain (cols a power of two): a conflict-free
     * bijection at every width, and layout_xor itself from 32 words on. */
    for (unsigned cols = 1; cols <= 64; cols *= 2) {
        layout_case t = {"xor_narrow", 32, cols, 4, 0, xor_narrow, 1, 1};
        check_case(&t);
        for (unsigned r = 0; r < 32 && cols >= 32; ++r)
            for (unsigned c = 0; c < cols; ++c)
                EXPECT(layout_xor_narrow(r, c, cols) == layout_xor(r, c, cols),
                       "xor_narrow (%u,%u) of %u columns is not layout_xor", r, c, cols);
    }

    /* Swizzle<B,M,S> for every B 0..5, M 0..4 and valid S in -8..8, over one period and the
     * next: its own inverse (hence a bijection), the low M bits kept, and the bits outside
     * YYY and ZZZ kept. */
    static unsigned seen[1u << 18];
    unsigned stamp = 0;
    int swizzles = 0;
    for (int b = 0; b <= 5; ++b)
        for (int m = 0; m <= 4; ++m)
            for (int sh = -8; sh <= 8; ++sh) {
                if (layout_swizzle_invalid(b, m, sh)) continue;
                ++swizzles, ++stamp;
                unsigned period = 1u << (m + b + (sh < 0 ? -sh : sh));
                unsigned yyy = ((1u << b) - 1u) << (m + (sh > 0 ? sh : 0));
                unsigned zzz = ((1u << b) - 1u) << (m - (sh < 0 ? sh : 0));
                int bad_inverse = 0, bad_kept = 0, collisions = 0;
                for (unsigned o = 0; o < 2 * period; ++o) {
                    unsigned x = layout_swizzle(o, b, m, sh);
                    bad_inverse += layout_swizzle(x, b, m, sh) != o;
                    bad_kept += (x & ~zzz) != (o & ~zzz) || (x & yyy) != (o & yyy);
                    collisions += seen[x] == stamp;
                    seen[x] = stamp;
                }
                EXPECT(!bad_inverse && !bad_kept && !collisions,
                       "Swizzle<%d,%d,%d>: %d not self-inverse, %d change other bits, %d collide",
                       b, m, sh, bad_inverse, bad_kept, collisions);
            }
    EXPECT(swizzles > 200, "only %d valid swizzles tried", swizzles);
    /* Chapter 03's layouts are special cases. */
    for (unsigned r = 0; r < 64; ++r)
        for (unsigned c = 0; c < 32; ++c) {
            EXPECT(layout_swizzle(r * 32 + c, 5, 0, 5) == layout_xor(r, c, 32),
                   "Swizzle<5,0,5> is not c ^ r at (%u,%u)", r, c);
            if (c < 16)
                EXPECT(layout_swizzle(r * 16 + c, 4, 0, 5) == layout_xor_narrow(r, c, 16),
                       "Swizzle<4,0,5> is not the 16-word fix at (%u,%u)", r, c);
        }
    /* What is invalid, and why. */
    EXPECT(layout_swizzle_invalid(-1, 0, 3) && layout_swizzle_invalid(3, -1, 3) &&
               layout_swizzle_invalid(3, 4, 2) && layout_swizzle_invalid(3, 4, -2) &&
               layout_swizzle_invalid(5, 20, 7) && !layout_swizzle_invalid(3, 4, 3) &&
               !layout_swizzle_invalid(0, 0, 0) && !layout_swizzle_invalid(2, 1, -5),
           "layout_swizzle_invalid accepts or rejects the wrong parameters");

    /* XOR's inverse is itself: reading (r, c ^ r) from row r finds column c. */
    for (unsigned r = 0; r < 32; ++r)
        for (unsigned c = 0; c < 32; ++c)
            EXPECT(layout_xor(r, c, 32) - r * 32 == (c ^ r), "xor (%u,%u)", r, c);
    return test_finish("test_layout");
}
