/* Hopper's wgmma reads each shared-memory operand through a 64-bit matrix descriptor: where the
 * tile starts, two strides, and a mode that names the swizzle the tile was written in (PTX ISA,
 * "Matrix Descriptor Format", sm_90a). Here: the layout each mode describes, written with the
 * course's Swizzle<B,4,3> (layout_swizzle), and the descriptor that encodes it.
 *
 *   bit  63 62 | 51 50 49 | 45 ........ 32 | 29 ........ 16 | 13 ......... 0
 *        mode  | base off | SBO >> 4       | LBO >> 4       | start >> 4        (other bits 0)
 *
 *   mode 0: none (interleave)  1: 128B swizzle  2: 64B swizzle  3: 32B swizzle
 *   each address and offset field keeps bits 4..17 of its byte value: (x & 0x3FFFF) >> 4
 *
 * A tile is built from core matrices: 8 rows of 16 bytes (8 fp16 or 4 tf32 along the row). In a
 * swizzled mode a row of the tile is `span` bytes (32, 64 or 128: 2, 4 or 8 core-matrix rows of
 * 16 bytes side by side), 8 rows make an atom of 8 x span bytes, and the bytes land where
 * Swizzle<B,4,3> (B = 1, 2, 3) moves them: the 16-byte chunk XORed with address bits 7.., that is
 * chunk c of row r to c ^ ((r >> (3 - B)) mod 2^B), what the TMA writes in the same mode (chapter
 * 04's test_tma_swizzle). K-major (the
 * operand's rows run along K, as A's rows of a row-major A): element (mn, k) of one wgmma slice,
 * in bytes before the swizzle, with E bytes an element and T = 16 / E elements a chunk:
 *
 *   none     (mn % 8) 16   + (mn / 8) SBO + (k / T) LBO  + (k % T) E
 *   span S   (mn % 8) S    + (mn / 8) SBO + (k / T) 16   + (k % T) E      k < S / E
 *
 * MN-major (rows run along M or N, as B's rows of a row-major B), w = S / 16 chunks a row:
 *
 *   none     (mn % T) E + (mn / T) SBO                  + (k % 8) 16 + (k / 8) LBO
 *   span S   (mn % T) E + (mn / T % w) 16 + (mn / T / w) LBO + (k % 8) S + (k / 8) SBO
 *
 * So SBO and LBO trade places between the modes: K-major swizzled has no LBO (the ISA: "not
 * used, assumed to be 1"); MN-major interleave's SBO steps along MN, its LBO along K. These are
 * the PTX ISA's canonical layouts (K-major 128B: ((8,m),(T,2k)):((8T,SBO),(1,T)) in elements,
 * then Swizzle<3,4,3>), element for element: common/tests/test_wgmma_desc.c holds them to the
 * ISA's worked examples.
 *
 * The swizzle acts on the address bits, so a tile whose atoms start on their period (256, 512,
 * 1024 bytes for 32B, 64B, 128B) is swizzled as its offsets are, and its descriptor's base
 * offset is 0; a start inside an atom (the next K slice of a 128B tile, 32 bytes on) keeps the
 * atom's pattern, base offset 0 (CuTe steps its descriptors so). Where the pattern itself starts
 * off its period the ISA asks for base offset = (pattern start >> 7) & 7; the layout below assumes
 * atoms on their period. */
#ifndef COURSE_WGMMA_DESC_H
#define COURSE_WGMMA_DESC_H

#include "model/hd.h"
#include "model/layout.h"

typedef enum {
    WGMMA_NONE = 0, /* "interleave": core matrices, no swizzle */
    WGMMA_128B = 1,
    WGMMA_64B = 2,
    WGMMA_32B = 3
} wgmma_mode;

/* The mode's name, as the PTX ISA and the TMA's swizzles call it. */
COURSE_HD_INLINE const char* wgmma_mode_name(wgmma_mode m) {
    return m == WGMMA_128B ? "128B" : m == WGMMA_64B ? "64B" : m == WGMMA_32B ? "32B" : "none";
}

/* Bytes of a row of the mode's atom: 16 (one core-matrix row) for none. */
COURSE_HD_INLINE unsigned wgmma_span(wgmma_mode m) {
    return m == WGMMA_128B ? 128u : m == WGMMA_64B ? 64u : m == WGMMA_32B ? 32u : 16u;
}

/* B of the mode's Swizzle<B,4,3> on byte addresses: 0 for none. */
COURSE_HD_INLINE int wgmma_swizzle_bits(wgmma_mode m) {
    return m == WGMMA_128B ? 3 : m == WGMMA_64B ? 2 : m == WGMMA_32B ? 1 : 0;
}

/* Where the mode's pattern repeats: 8 rows of its span (16 bytes for none: no pattern). */
COURSE_HD_INLINE unsigned wgmma_period(wgmma_mode m) {
    return m == WGMMA_NONE ? 16u : 8u * wgmma_span(m);
}

/* Element (mn, k) of a wgmma operand slice: its byte offset from the slice's start before the
 * swizzle (the table above). k_major: 1 for K-major, 0 for MN-major; elem: bytes an element
 * (2 for fp16 and bf16, 4 for tf32); lbo, sbo in bytes. */
COURSE_HD_INLINE unsigned wgmma_offset(wgmma_mode m, int k_major, unsigned mn, unsigned k,
                                       unsigned elem, unsigned lbo, unsigned sbo) {
    const unsigned t = 16u / elem, s = wgmma_span(m);
    if (k_major)
        return m == WGMMA_NONE ? mn % 8 * 16 + mn / 8 * sbo + k / t * lbo + k % t * elem
                               : mn % 8 * s + mn / 8 * sbo + k / t * 16 + k % t * elem;
    return m == WGMMA_NONE ? mn % t * elem + mn / t * sbo + k % 8 * 16 + k / 8 * lbo
                           : mn % t * elem + mn / t % (s / 16) * 16 + mn / t / (s / 16) * lbo +
                                 k % 8 * s + k / 8 * sbo;
}

/* The shared-memory byte address wgmma reads element (mn, k) from, the slice starting at
 * `start` in atoms aligned to their period: the offset's address through the mode's swizzle. */
COURSE_HD_INLINE unsigned wgmma_address(wgmma_mode m, int k_major, unsigned start, unsigned mn,
                                        unsigned k, unsigned elem, unsigned lbo, unsigned sbo) {
    return layout_swizzle(start + wgmma_offset(m, k_major, mn, k, elem, lbo, sbo),
                          wgmma_swizzle_bits(m), 4, 3);
}

/* The strides of a tile the TMA writes in the same mode as boxes one atom row wide (span bytes;
 * 16 for none) and `box_rows` rows deep, laid one after another along the row: K-major, rows
 * along MN and the boxes along K; MN-major, rows along K and the boxes along MN. In a swizzled
 * mode SBO is an atom's 8 rows and LBO the next box (K-major: unused, 16); for none the core
 * matrices' 128 bytes step along MN (K-major) or K (MN-major) and the next box the other way. */
COURSE_HD_INLINE void wgmma_tma_strides(wgmma_mode m, int k_major, unsigned box_rows, unsigned* lbo,
                                        unsigned* sbo) {
    const unsigned box = box_rows * wgmma_span(m);
    if (m == WGMMA_NONE)
        *lbo = k_major ? box : 128u, *sbo = k_major ? 128u : box;
    else
        *lbo = k_major ? 16u : box, *sbo = 8u * wgmma_span(m);
}

/* The descriptor's 14-bit fields: bits 4..17 of a byte value. */
COURSE_HD_INLINE unsigned long long wgmma_desc_field(unsigned bytes) {
    return (bytes & 0x3FFFFu) >> 4;
}

/* The base offset for a pattern that starts at `pattern`: 0 on the mode's period, else
 * (pattern >> 7) & 7 (PTX ISA); 0 for none, which has no pattern. */
COURSE_HD_INLINE unsigned wgmma_base_offset(wgmma_mode m, unsigned pattern) {
    return m == WGMMA_NONE || pattern % wgmma_period(m) == 0 ? 0u : (pattern >> 7) & 7u;
}

/* The descriptor of a slice that starts at byte `start` of shared memory, in a mode whose
 * pattern (the atom holding it) starts at `pattern`; lbo, sbo in bytes. */
COURSE_HD_INLINE unsigned long long wgmma_desc(wgmma_mode m, unsigned start, unsigned pattern,
                                               unsigned lbo, unsigned sbo) {
    return wgmma_desc_field(start) | wgmma_desc_field(lbo) << 16 | wgmma_desc_field(sbo) << 32 |
           (unsigned long long)wgmma_base_offset(m, pattern) << 49 | (unsigned long long)m << 62;
}

/* NULL where the fields hold the values as given, else why not: what a descriptor cannot say
 * (a byte below 16, a value past 18 bits) would make wgmma read elsewhere, silently. */
COURSE_HD_INLINE const char* wgmma_desc_invalid(unsigned start, unsigned lbo, unsigned sbo) {
    return start % 16 ? "the start must be 16-byte aligned"
           : lbo % 16 ? "LBO must be a multiple of 16 bytes"
           : sbo % 16 ? "SBO must be a multiple of 16 bytes"
           : start >= 1u << 18 || lbo >= 1u << 18 || sbo >= 1u << 18
               ? "start, LBO and SBO must be below 256 KiB (18 bits, the low 4 dropped)"
               : 0;
}

/* A descriptor's fields back, in bytes (the start, LBO and SBO as stored: bits 4..17). */
typedef struct {
    unsigned start, lbo, sbo, base_offset;
    wgmma_mode mode;
} wgmma_fields;

COURSE_HD_INLINE wgmma_fields wgmma_desc_fields(unsigned long long d) {
    wgmma_fields f = {(unsigned)(d & 0x3FFFu) << 4, (unsigned)(d >> 16 & 0x3FFFu) << 4,
                      (unsigned)(d >> 32 & 0x3FFFu) << 4, (unsigned)(d >> 49 & 7u),
                      (wgmma_mode)(d >> 62)};
    return f;
}

#endif
