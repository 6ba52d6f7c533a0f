/* swizzlecalc: CuTe's Swizzle<B,M,S> (layout_swizzle in layout.h) at the command line.
 *
 *   swizzlecalc B M S OFFSET...     each mapped offset on a line of its own, nothing else
 *   swizzlecalc B M S               one period as a grid: logical unit -> physical unit
 *   swizzlecalc B M S --elem-bytes E --row-elems N [--rows R]
 *                                   the tile's banks, and the model's wavefronts of a column
 *                                   read and a row read of 2^M-element units
 *   ... [--plot FILE.png]           the tile's banks also drawn as a heat map, with gnuplot
 *
 * Offsets count elements; a unit is the 2^M elements that the swizzle moves as one. */
#include "host/check.h"
#include "host/cli.h"
#include "model/layout.h"
#include "model/smem_model.h"
#include "model/swizzle_tile.h"
#include "host/plot.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: swizzlecalc B M S [OFFSET...]\n"
    "       swizzlecalc B M S --elem-bytes 1|2|4|8|16 --row-elems N [--rows R] [--plot FILE.png]\n"
    "  Swizzle<B,M,S>: keep the low M bits, XOR the B bits at bit M+S into the B bits at bit M\n"
    "  (S < 0: the bits at bit M into those at bit M-S). B, M >= 0, |S| >= B, B + M + |S| <= 31.\n"
    "  OFFSET...      print each swizzled offset (elements, below 2^31), one per line\n"
    "  (none)         draw one period: logical unit -> physical unit (a unit: 2^M elements)\n"
    "  --elem-bytes   with --row-elems: draw a tile of R rows (default 32) of N elements, each\n"
    "                 element's bank, and the wavefronts of a column and a row read of units\n"
    "  --plot FILE    also draw the tile's banks as a heat map with gnuplot, after the text\n"
    "                 (exit 77 without gnuplot)\n";

#define fail(...) course_tool_usage_error("swizzlecalc", usage, __VA_ARGS__)

/* What layout_swizzle_invalid accepts, for the messages. */
#define RULE "B >= 0, M >= 0, |S| >= B, B + M + |S| <= 31"

/* Why Swizzle<b,m,s> is invalid (layout_swizzle_invalid's reason), the rule, and the values of the
 * parameter at fault that would do with the other two as given. */
static int swizzle_error(int b, int m, int s, const char* why) {
    const int as = s < 0 ? -s : s;
    char fix[128] = "";
    if (b < 0 && m >= 0) {
        const int hi = as < 31 - m - as ? as : 31 - m - as;
        if (hi >= 0)
            snprintf(fix, sizeof fix, "; with M = %d and S = %d, B is 0 to %d", m, s, hi);
        else
            snprintf(fix, sizeof fix, "; no B fits M = %d and S = %d", m, s);
    } else if (m < 0 && b >= 0 && as >= b) {
        const int hi = 31 - b - as;
        if (hi >= 0)
            snprintf(fix, sizeof fix, "; with B = %d and S = %d, M is 0 to %d", b, s, hi);
        else
            snprintf(fix, sizeof fix, "; no M fits B = %d and S = %d", b, s);
    } else if (b >= 0 && m >= 0 && as < b) {
        const int hi = 31 - m - b;
        if (hi >= b)
            snprintf(fix, sizeof fix, "; with B = %d and M = %d, S is %d to %d or -%d to -%d", b, m,
                     b, hi, hi, b);
        else
            snprintf(fix, sizeof fix, "; no S fits B = %d and M = %d", b, m);
    } else if (b >= 0 && m >= 0)
        snprintf(fix, sizeof fix, "; here B + M + |S| = %d", b + m + as);
    return fail("Swizzle<%d,%d,%d>: %s (valid: %s%s)", b, m, s, why, RULE, fix);
}

/* A whole number, optionally negative, of magnitude below 2^31. */
static int parse_int(const char* s, int* out) {
    unsigned long long v;
    int negative = s[0] == '-';
    if (course_parse_unsigned(s + negative, 10, 0x7fffffffull, &v)) return -1;
    *out = negative ? -(int)v : (int)v;
    return 0;
}

/* The bit picture: Y for the source bits, Z for the bits they change, m for the kept unit. */
static void print_bits(int b, int m, int s) {
    char bits[40];
    swizzle_bit_picture(b, m, s, bits, sizeof bits);
    printf("Swizzle<%d,%d,%d>, offset bits %d..0: %s   (Z ^= Y; m: a unit of %u elements, kept)\n",
           b, m, s, (int)strlen(bits) - 1, bits, 1u << m);
}

/* One period, 2^|S| rows of 2^B units: the physical unit of each logical unit. */
static void print_period(int b, int m, int s) {
    unsigned per_row = 1u << b, rows = 1u << (s < 0 ? -s : s);
    print_bits(b, m, s);
    printf("one period: %u rows of %u units; entry = physical unit of logical unit (row, col)\n",
           rows, per_row);
    printf("row \\ col");
    for (unsigned c = 0; c < per_row; ++c) printf(" %5u", c);
    printf("\n");
    for (unsigned r = 0; r < rows; ++r) {
        printf("%9u", r);
        for (unsigned c = 0; c < per_row; ++c) {
            unsigned unit = r * per_row + c;
            printf(" %5u", layout_swizzle(unit << m, b, m, s) >> m);
        }
        printf("\n");
    }
}

/* --plot: the bank of each element (what print_tile prints) as a heat map, numbered up to 1024
 * cells, the verdict in the title. */
static int plot_tile(const swizzle_tile* t, const char* png, const char* bits, int col,
                     int col_ideal, int row, int row_ideal) {
    course_plot p;
    int rc = course_plot_begin(&p, "swizzlecalc", "--plot");
    if (rc) return rc;
    for (unsigned r = 0; r < t->rows; ++r)
        for (unsigned c = 0; c < t->row_elems; ++c)
            fprintf(p.data, c + 1 < t->row_elems ? "%u " : "%u\n",
                    smem_bank(swizzle_tile_slot(t, r, c) * t->elem_bytes));
    double aspect = (double)t->rows / t->row_elems;
    int height = 220 + (int)(1000 * (aspect < 0.25 ? 0.25 : aspect > 1.5 ? 1.5 : aspect));
    FILE* gp = course_plot_script(&p, png, 1200, height);
    if (gp) {
        fprintf(gp,
                "set title 'swizzlecalc %d %d %d --elem-bytes %u --row-elems %u --rows %u'.\"\\n"
                "Swizzle<%d,%d,%d> (offset bits %s): the bank of each element, %u rows of %u "
                "%u-byte elements\\ncolumn read: worst %d wavefronts (ideal %d); row read: worst "
                "%d wavefronts (ideal %d)\"\n",
                t->b, t->m, t->s, t->elem_bytes, t->row_elems, t->rows, t->b, t->m, t->s, bits,
                t->rows, t->row_elems, t->elem_bytes, col, col_ideal, row, row_ideal);
        fprintf(gp,
                "set xlabel 'element of the row'\nset ylabel 'row'\nunset key\n"
                "set xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\nset tics out\n"
                "set cbrange [-0.5:31.5]\nset cbtics 0,4,31\nset cblabel 'bank'\n"
                "set palette model HSV defined (0 0 0.6 1, 1 0.8 0.6 1) maxcolors 32\n"
                "plot DATA matrix with image",
                t->row_elems - 1, t->rows - 1);
        if (t->rows * t->row_elems <= 1024)
            fprintf(gp, ", DATA matrix using 1:2:(sprintf('%%d', $3)) with labels font ',7'");
        fprintf(gp, "\n");
    }
    return course_plot_end(&p);
}

static int print_tile(const swizzle_tile* t, const char* png) {
    unsigned unit = t->unit_elems;
    if (t->row_elems % unit)
        return fail("--row-elems %u is not a whole number of %u-element units: it must be a "
                    "multiple of 2^M = %u",
                    t->row_elems, unit, unit);
    if (t->elem_bytes * unit > 16) {
        int max_m = 0; /* the widest unit of these elements: 16 bytes */
        while (t->elem_bytes << (max_m + 1) <= 16) ++max_m;
        return fail("a unit of %u x %u bytes is wider than the widest access, 16 bytes: with "
                    "--elem-bytes %u, M is 0 to %d",
                    unit, t->elem_bytes, t->elem_bytes, max_m);
    }
    print_bits(t->b, t->m, t->s);
    printf("bank of each element: %u rows of %u elements of %u bytes\n", t->rows, t->row_elems,
           t->elem_bytes);
    for (unsigned r = 0; r < t->rows; ++r) {
        printf("%4u |", r);
        for (unsigned c = 0; c < t->row_elems; ++c)
            printf(" %2u", smem_bank(swizzle_tile_slot(t, r, c) * t->elem_bytes));
        printf("\n");
    }
    int col_ideal, row_ideal;
    int col = swizzle_tile_worst(t, 1, &col_ideal), row = swizzle_tile_worst(t, 0, &row_ideal);
    printf("column read (lane i: unit (row i, col), %u bytes), worst column: %d wavefronts "
           "(ideal %d)\n",
           t->elem_bytes * unit, col, col_ideal);
    printf("row read (lane i: unit i of the row), worst row: %d wavefronts (ideal %d)\n", row,
           row_ideal);
    if (!png) return EXIT_OK;
    char bits[40];
    swizzle_bit_picture(t->b, t->m, t->s, bits, sizeof bits);
    return plot_tile(t, png, bits, col, col_ideal, row, row_ideal);
}

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (argc > 2) return fail("--help takes nothing else");
            printf("%s", usage);
            return EXIT_OK;
        }
    if (argc < 4) return fail("need B, M and S (valid: %s)", RULE);
    int bms[3];
    static const char* const names[3] = {"B", "M", "S"};
    for (int i = 0; i < 3; ++i)
        if (parse_int(argv[1 + i], &bms[i]))
            return fail("%s: not a whole number: '%s' (valid: %s)", names[i], argv[1 + i], RULE);
    const char* invalid = layout_swizzle_invalid(bms[0], bms[1], bms[2]);
    if (invalid) return swizzle_error(bms[0], bms[1], bms[2], invalid);
    if (argc == 4) {
        print_period(bms[0], bms[1], bms[2]);
        return EXIT_OK;
    }
    if (argv[4][0] == '-' && argv[4][1] == '-') {
        swizzle_tile t = {0, 1u << bms[1], 0, 32, bms[0], bms[1], bms[2]};
        unsigned seen = 0;
        const char* png = NULL;
        for (int i = 4; i < argc; i += 2) {
            static const char* const flags[] = {"--elem-bytes", "--row-elems", "--rows", "--plot"};
            int k = 0;
            while (k < 4 && strcmp(argv[i], flags[k])) ++k;
            if (k == 4) return fail("unknown argument '%s'", argv[i]);
            if (seen >> k & 1u) return fail("%s given twice", argv[i]);
            seen |= 1u << k;
            if (i + 1 >= argc && k == 3) return fail("--plot needs a value: the PNG to write");
            if (i + 1 >= argc && k == 0)
                return fail("--elem-bytes needs a value: 1, 2, 4, 8 or 16");
            if (i + 1 >= argc)
                return fail("%s needs a value: a whole number from 1 to 4096", argv[i]);
            const char* v = argv[i + 1];
            if (k == 3) {
                const char* why = course_unwritable(v);
                if (why) return fail("--plot %s: the file %s", v, why);
                png = v;
                continue;
            }
            unsigned long long x;
            const int bad = course_parse_unsigned(v, 10, 4096, &x) || !x;
            if (k == 0 && (bad || (x != 1 && x != 2 && x != 4 && x != 8 && x != 16)))
                return fail("--elem-bytes must be 1, 2, 4, 8 or 16, got '%s'", v);
            if (bad) return fail("%s needs a whole number from 1 to 4096, got '%s'", argv[i], v);
            *(k == 0 ? &t.elem_bytes : k == 1 ? &t.row_elems : &t.rows) = (unsigned)x;
        }
        if ((seen & 3u) != 3u && (seen & 8u))
            return fail("--plot draws a tile: give it with --elem-bytes and --row-elems");
        if (!(seen & 1u) || !(seen & 2u)) return fail("--elem-bytes and --row-elems go together");
        return print_tile(&t, png);
    }
    unsigned long long offsets[256];
    int n = 0;
    for (int i = 4; i < argc; ++i) {
        if (n == 256) return fail("more than 256 offsets");
        if (course_parse_unsigned(argv[i], 10, 0x7fffffffull, &offsets[n++]))
            return fail("not an offset from 0 to 2^31 - 1 (2147483647): '%s'", argv[i]);
    }
    for (int i = 0; i < n; ++i)
        printf("%u\n", layout_swizzle((unsigned)offsets[i], bms[0], bms[1], bms[2]));
    return EXIT_OK;
}
