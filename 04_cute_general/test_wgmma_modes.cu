/* test_wgmma_modes: wgmma reads a tile the TMA wrote, through the descriptor model/wgmma_desc.h
 * encodes, in each of the four modes (none, 32B, 64B, 128B) and both major-nesses, and gets the
 * exact product; a descriptor that disagrees with the TMA's map gets a wrong one.
 *
 * The product is wgmma_tile.cu's (one warpgroup, 64 x 64 x 64, exact); here the descriptors are
 * written on the host from the model, one a slice of 16 along K, which starts 32 bytes along K
 * (K-major: into the atom row, the next box in 32B, two boxes on in none) or 16 rows on
 * (MN-major).
 *
 * Wrong on purpose, each must give a wrong product: the 128B map read as 64B and the 64B map as
 * 128B (the mode field and its strides), and SBO written in bytes, not >> 4. Measured, not
 * asserted: a 128B tile 512 bytes past a 1 KiB boundary, read with base offset 0 and with
 * (pattern >> 7) & 7, what the PTX ISA asks where a pattern starts off its period.
 * Exit codes: 0 as said, 1 not, 77 skipped (a GPU other than sm_90: the code is sm_90a's). */
#include "wgmma_tile.h"
#include "host/check.h"
#include "host/device.h"
#include "host/test_util.h"
#include "model/wgmma_desc.h"

#include <stdio.h>

/* How the descriptors read what the TMA wrote: their mode, strides and a corruption. */
typedef struct {
    wgmma_mode mode;   /* the descriptor's mode (the maps': the run's) */
    unsigned lbo, sbo; /* the descriptor's strides, bytes */
    int sbo_unshifted; /* 1: SBO's field given in bytes (the missing >> 4) */
    int base_rule;     /* 1: base offset (pattern >> 7) & 7; 0: always 0 */
    unsigned shift;    /* the tiles' start past a 1 KiB boundary */
} read_plan;

/* The product of the tiles in `map_mode` read through p's descriptors: elements off. */
static int run(int mn_major, wgmma_mode map_mode, const read_plan* p) {
    wgmma_tile_read r = {mn_major, map_mode, p->shift, {{0}}};
    const unsigned span = wgmma_span(map_mode);
    for (int s = 0; s < 4; ++s)
        for (int op = 0; op < 2; ++op) {
            const unsigned start = p->shift + wgmma_tile_slice_start(mn_major, map_mode, op, s);
            /* the atom this slice lies in: K-major, its box's first row; MN-major, the slice */
            const unsigned pattern = mn_major ? start : start - 32u * s % span;
            unsigned long long d = wgmma_desc(
                p->mode, start, p->base_rule ? pattern : pattern & ~1023u, p->lbo, p->sbo);
            if (p->sbo_unshifted) /* the field holding SBO's bytes, not SBO >> 4 */
                d = (d & ~(0x3FFFull << 32)) | (unsigned long long)(p->sbo & 0x3FFFu) << 32;
            r.desc[s][op] = d;
        }
    return wgmma_tile_elements_off(&r);
}

static read_plan plan_for(wgmma_mode m, int mn_major) {
    read_plan p = {m, 0, 0, 0, 1, 0};
    wgmma_tma_strides(m, !mn_major, 64, &p.lbo, &p.sbo);
    return p;
}

int main(int argc, char** argv) {
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    course_device dev;
    const char* what = "the wgmma modes test (wgmma.mma_async)";
    int rc = course_device_open(&dev, 9, 0, what);
    if (rc != EXIT_OK) return rc;
    rc = wgmma_tile_open(&dev, what);
    if (rc != EXIT_OK) return rc;
    static const wgmma_mode modes[] = {WGMMA_NONE, WGMMA_32B, WGMMA_64B, WGMMA_128B};
    for (int mn = 0; mn < 2; ++mn)
        for (int i = 0; i < 4; ++i) {
            const read_plan p = plan_for(modes[i], mn);
            const int off = run(mn, modes[i], &p);
            printf("%-4s %s-major, LBO %5u, SBO %4u: %4d of %d elements off A B\n",
                   wgmma_mode_name(modes[i]), mn ? "MN" : " K", p.lbo, p.sbo, off, 64 * 64);
            EXPECT(off == 0, "%s, %s-major: the product is wrong", wgmma_mode_name(modes[i]),
                   mn ? "MN" : "K");
        }
    /* the pitfalls: each must come out wrong */
    for (int mn = 0; mn < 2; ++mn) {
        const read_plan as64 = plan_for(WGMMA_64B, mn), as128 = plan_for(WGMMA_128B, mn);
        read_plan p = as64; /* the slices where the 128B tile has them */
        int off = run(mn, WGMMA_128B, &p);
        printf("128B map, 64B descriptor, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "a 128B tile read as 64B gave the right product");
        p = as128;
        off = run(mn, WGMMA_64B, &p);
        printf("64B map, 128B descriptor, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "a 64B tile read as 128B gave the right product");
        p = as128;
        p.sbo_unshifted = 1;
        off = run(mn, WGMMA_128B, &p);
        printf("128B, SBO's field in bytes, %s-major: %d elements off\n", mn ? "MN" : "K", off);
        EXPECT(off > 0, "SBO without >> 4 gave the right product");
    }
    /* measured: a 128B tile 512 bytes off its period, either base offset */
    for (int rule = 0; rule < 2; ++rule) {
        read_plan p = plan_for(WGMMA_128B, 0);
        p.shift = 512, p.base_rule = rule;
        const int off = run(0, WGMMA_128B, &p);
        printf("128B K-major at 1 KiB + 512, base offset %s: %d elements off\n",
               rule ? "(pattern >> 7) & 7 = 4" : "0", off);
    }
    wgmma_tile_close();
    return test_finish("test_wgmma_modes");
}
