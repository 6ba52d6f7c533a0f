/* wgmma_desc.h against the PTX ISA and the TMA: the canonical layouts equal the ISA's worked
 * examples element for element; a tile the TMA writes in a swizzle mode (one box per atom
 * column, what chapter 04's test_tma_swizzle proved on the GPU) is the layout wgmma reads in the
 * same mode with SBO = 8 rows of the box; each layout is one-to-one on its atoms; the
 * descriptor's fields, its base offset and its refusals are the ISA's. */
#include "host/test_util.h"
#include "model/wgmma_desc.h"

#include <stdlib.h>
#include <string.h>

/* A CuTe layout of rank 2 in the ISA's notation, "((8,2),(4,4)):((4,32),(1,64))": each mode an
 * integer or a tuple of up to 3, read into sizes s and strides d (missing sub-modes of size 1). */
typedef struct {
    unsigned s[2][3], d[2][3];
} cute_layout;

/* One mode at *p, an integer or a tuple: its entries into v, *p past it; -1 if malformed. */
static int parse_mode(const char** p, unsigned* v) {
    v[0] = v[1] = v[2] = 1;
    const int tuple = **p == '(';
    int n = 0;
    do {
        char* end;
        *p += tuple || n; /* past '(' or ',' */
        v[n++] = (unsigned)strtoul(*p, &end, 10);
        if (end == *p) return -1;
        *p = end;
    } while (tuple && **p == ',' && n < 3);
    return tuple && *(*p)++ != ')' ? -1 : n;
}

/* 0 where `text` is a rank-2 layout, (shape):(stride), else -1. */
static int parse_layout(const char* text, cute_layout* l) {
    const char* p = text;
    for (int part = 0; part < 2; ++part) {
        unsigned(*v)[3] = part ? l->d : l->s;
        if (*p++ != '(' || parse_mode(&p, v[0]) < 1 || *p++ != ',' || parse_mode(&p, v[1]) < 1 ||
            *p++ != ')' || (part == 0 && *p++ != ':'))
            return -1;
    }
    return *p ? -1 : 0;
}

/* The layout at (i, j): each coordinate split column-major over its mode's sizes, as in CuTe. */
static unsigned cute_at(const cute_layout* l, unsigned i, unsigned j) {
    unsigned at = 0;
    for (int m = 0; m < 2; ++m) {
        const unsigned *s = l->s[m], *d = l->d[m], x = m ? j : i;
        at += x % s[0] * d[0] + x / s[0] % s[1] * d[1] + x / s[0] / s[1] * d[2];
    }
    return at;
}

/* The ISA's worked examples ("Canonical layouts", figures 166 to 170): the exact layout in
 * elements as the ISA prints it, major-ness, mode, element bytes, LBO and SBO in bytes and the
 * encodings the ISA gives them (0: "NA"). The K-major 32B one, with k = 2, runs past its 32-byte
 * rows into the next (256 elements on 136 offsets): held to it as printed, the one-to-one test
 * below keeps a K-major slice inside its atom row. */
typedef struct {
    const char* name;
    const char* layout;
    int k_major;
    wgmma_mode mode;
    unsigned elem, lbo, sbo, lbo_field, sbo_field;
} isa_example;

static const isa_example ISA[] = {
    {"K none tf32", "((8,2),(4,4)):((4,32),(1,64))", 1, WGMMA_NONE, 4, 256, 128, 16, 8},
    {"K 32B tf32", "((8,2),(4,4)):((8,64),(1,4))", 1, WGMMA_32B, 4, 0, 256, 0, 16},
    {"MN none bf16", "((8,1,2),(8,2)):((1,8,64),(8,128))", 0, WGMMA_NONE, 2, 256, 128, 16, 8},
    {"MN 32B bf16", "((8,2,2),(8,2)):((1,8,128),(16,256))", 0, WGMMA_32B, 2, 256, 512, 16, 32},
    {"MN 64B bf16", "((8,4,2),(8,2)):((1,8,256),(32,512))", 0, WGMMA_64B, 2, 512, 1024, 32, 64},
};

static void isa_examples(void) {
    for (size_t x = 0; x < sizeof ISA / sizeof ISA[0]; ++x) {
        const isa_example* e = &ISA[x];
        cute_layout l;
        if (parse_layout(e->layout, &l)) {
            EXPECT(0, "%s: cannot read %s", e->name, e->layout);
            continue;
        }
        const unsigned rows = l.s[0][0] * l.s[0][1] * l.s[0][2],
                       cols = l.s[1][0] * l.s[1][1] * l.s[1][2];
        int bad = 0;
        for (unsigned i = 0; i < rows; ++i)
            for (unsigned j = 0; j < cols; ++j)
                bad += wgmma_offset(e->mode, e->k_major, i, j, e->elem, e->lbo, e->sbo) !=
                       cute_at(&l, i, j) * e->elem;
        EXPECT(bad == 0 && rows * cols >= 256, "%s: %d of %u elements away from the ISA's layout",
               e->name, bad, rows * cols);
        if (e->lbo) EXPECT(wgmma_desc_field(e->lbo) == e->lbo_field, "%s: LBO field", e->name);
        EXPECT(wgmma_desc_field(e->sbo) == e->sbo_field, "%s: SBO field", e->name);
    }
    /* The ISA's swizzle for each mode, applied to the byte address: Swizzle<0..3,4,3>. */
    EXPECT(wgmma_swizzle_bits(WGMMA_NONE) == 0 && wgmma_swizzle_bits(WGMMA_32B) == 1 &&
               wgmma_swizzle_bits(WGMMA_64B) == 2 && wgmma_swizzle_bits(WGMMA_128B) == 3,
           "Swizzle<B,4,3> per mode");
}

static const wgmma_mode MODES[] = {WGMMA_NONE, WGMMA_32B, WGMMA_64B, WGMMA_128B};

/* Where the TMA puts element (mn, k) of an operand tile of `mn_n` x `k_n` elements in mode m:
 * boxes one atom row wide (span bytes; 16 for none, the mode without a swizzle), laid one after
 * the other along the row, each `box_rows` rows deep, every row at Swizzle<B,4,3> of its bytes.
 * K-major rows run along MN (box rows = mn_n), MN-major rows along K (box rows = k_n). */
static unsigned tma_address(wgmma_mode m, int k_major, unsigned mn, unsigned k, unsigned elem,
                            unsigned mn_n, unsigned k_n) {
    const unsigned s = wgmma_span(m), per_row = s / elem;
    const unsigned row = k_major ? mn : k, along = k_major ? k : mn, rows = k_major ? mn_n : k_n;
    return layout_swizzle(along / per_row * rows * s + row * s + along % per_row * elem,
                          wgmma_swizzle_bits(m), 4, 3);
}

/* A TMA-filled tile read through the same mode's descriptor, its strides those of the boxes
 * (wgmma_tma_strides). */
static void tma_fill_is_the_layout(void) {
    const unsigned MN = 64, KN = 64;
    for (int e = 2; e <= 4; e += 2)
        for (int major = 0; major < 2; ++major)
            for (size_t i = 0; i < 4; ++i) {
                const wgmma_mode m = MODES[i];
                const unsigned elem = (unsigned)e, s = wgmma_span(m);
                unsigned lbo, sbo;
                wgmma_tma_strides(m, major, major ? MN : KN, &lbo, &sbo);
                /* K-major: one wgmma slice reads K within an atom row */
                const unsigned kn = major && m != WGMMA_NONE ? s / elem : KN;
                int bad = 0;
                for (unsigned mn = 0; mn < MN; ++mn)
                    for (unsigned k = 0; k < kn; ++k)
                        bad += wgmma_address(m, major, 0, mn, k, elem, lbo, sbo) !=
                               tma_address(m, major, mn, k, elem, MN, KN);
                EXPECT(bad == 0,
                       "%s, %s-major, %u-byte elements: %d elements not where the TMA "
                       "put them",
                       wgmma_mode_name((wgmma_mode)m), major ? "K" : "MN", elem, bad);
            }
}

/* Each layout is one-to-one: over its atoms (K-major: 64 rows of one atom row; MN-major: 8 atoms
 * along MN, 16 rows of K), no two elements share a byte. */
static void one_to_one(void) {
    static unsigned char used[1 << 16];
    for (int major = 0; major < 2; ++major)
        for (size_t i = 0; i < 4; ++i) {
            const wgmma_mode m = MODES[i];
            const unsigned elem = 2, s = wgmma_span(m);
            /* K-major none: two core matrices along K, so that LBO is stepped too */
            const unsigned mn_n = major ? 64 : 8 * s / elem,
                           k_n = major ? (m == WGMMA_NONE ? 16 : s / elem) : 16;
            unsigned lbo, sbo; /* the TMA's boxes, as many rows deep as the tile */
            wgmma_tma_strides(m, major, major ? mn_n : k_n, &lbo, &sbo);
            memset(used, 0, sizeof used);
            int clash = 0;
            for (unsigned mn = 0; mn < mn_n; ++mn)
                for (unsigned k = 0; k < k_n; ++k) {
                    const unsigned a = wgmma_address(m, major, 0, mn, k, elem, lbo, sbo);
                    clash += a + elem > sizeof used || used[a] || used[a + 1];
                    if (a + elem <= sizeof used) used[a] = used[a + 1] = 1;
                }
            EXPECT(clash == 0, "%s, %s-major: %d elements share bytes",
                   wgmma_mode_name((wgmma_mode)m), major ? "K" : "MN", clash);
        }
}

static void descriptor(void) {
    /* fields in place: start 0x420 (a K slice 32 bytes into an atom at 0x400), LBO 16, SBO 1024 */
    EXPECT(wgmma_desc(WGMMA_128B, 0x420, 0x400, 16, 1024) == 0x4000004000010042ull,
           "128B descriptor %llx", wgmma_desc(WGMMA_128B, 0x420, 0x400, 16, 1024));
    EXPECT(wgmma_desc(WGMMA_NONE, 0x3FFF0, 0, 0x3FFF0, 0x3FFF0) == 0x00003FFF3FFF3FFFull,
           "every field's 14 bits, mode none");
    EXPECT(wgmma_desc(WGMMA_32B, 0, 0, 0, 0) >> 62 == 3 &&
               wgmma_desc(WGMMA_64B, 0, 0, 0, 0) >> 62 == 2,
           "modes 32B = 3, 64B = 2");
    /* base offset: 0 on the period, else (pattern >> 7) & 7; none has no pattern */
    EXPECT(wgmma_base_offset(WGMMA_128B, 0) == 0 && wgmma_base_offset(WGMMA_128B, 2048) == 0 &&
               wgmma_base_offset(WGMMA_128B, 128) == 1 &&
               wgmma_base_offset(WGMMA_128B, 1024 + 384) == 3 &&
               wgmma_base_offset(WGMMA_128B, 640) == 5,
           "128B base offsets");
    EXPECT(wgmma_base_offset(WGMMA_64B, 512) == 0 && wgmma_base_offset(WGMMA_64B, 256) == 2 &&
               wgmma_base_offset(WGMMA_32B, 256) == 0 && wgmma_base_offset(WGMMA_32B, 128) == 1 &&
               wgmma_base_offset(WGMMA_NONE, 128) == 0,
           "64B, 32B and none base offsets");
    EXPECT((wgmma_desc(WGMMA_128B, 0x1180, 0x1180, 16, 1024) >> 49 & 7) == 3,
           "a pattern 384 bytes past 1024: base offset 3 in bits 49..51");
    /* the fields read back */
    int bad = 0;
    for (unsigned v = 0; v < 1u << 18; v += 16 * 37)
        for (size_t i = 0; i < 4; ++i) {
            const wgmma_fields f = wgmma_desc_fields(
                wgmma_desc(MODES[i], v, v, (v * 7) & 0x3FFF0, (v * 13) & 0x3FFF0));
            bad += f.start != v || f.lbo != ((v * 7) & 0x3FFF0) || f.sbo != ((v * 13) & 0x3FFF0) ||
                   f.mode != MODES[i] || f.base_offset != wgmma_base_offset(MODES[i], v);
        }
    EXPECT(bad == 0, "%d descriptors read back other fields", bad);
    /* what the fields cannot hold */
    EXPECT(!wgmma_desc_invalid(0x3FFF0, 16, 1024), "the largest start is valid");
    EXPECT(wgmma_desc_invalid(0x408, 16, 1024) != 0, "a start off 16 bytes refused");
    EXPECT(wgmma_desc_invalid(0x400, 8, 1024) != 0, "an LBO off 16 bytes refused");
    EXPECT(wgmma_desc_invalid(0x400, 16, 1000) != 0, "an SBO off 16 bytes refused");
    EXPECT(wgmma_desc_invalid(1u << 18, 16, 1024) != 0, "a start past 18 bits refused");
    EXPECT(wgmma_desc_field(1024) == 64 && wgmma_desc_field(1u << 18) == 0,
           "a byte value >> 4, and bit 18 lost: why the sizes are refused");
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    isa_examples();
    tma_fill_is_the_layout();
    one_to_one();
    descriptor();
    return test_finish("test_wgmma_desc");
}
