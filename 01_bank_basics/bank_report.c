/* What chapter 01 prints: the lesson's model tables (before the GPU), the measurement table,
 * the CSV (columns plot.gp and the ncu test read) and the summary.
 *
 * File layout: lesson tables, measurements, CSV, summary. */
#include "strided_read.h"
#include "host/csv.h"
#include "host/device.h"
#include "model/smem_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- lesson tables */

int model_wavefronts(int width, unsigned stride) {
    smem_access a = smem_strided((unsigned)width, SMEM_LOAD, stride, 0);
    return smem_wavefronts(&a);
}

/* The calibration's headline patterns, as loads of the given width. */
static smem_access pattern(unsigned width, const char* kind) {
    smem_access a = smem_strided(width, SMEM_LOAD, 1, 0);
    for (unsigned l = 0; l < 32; ++l) {
        if (!strcmp(kind, "broadcast")) a.offset[l] = 0;
        if (!strcmp(kind, "halves")) a.offset[l] = (l % 16) * width;
        if (!strcmp(kind, "neighbours")) a.offset[l] = (l / 2) * width;
        if (!strcmp(kind, "interleave")) a.offset[l] = ((l % 8) * 4 + l / 8) * width;
    }
    return a;
}

/* The most bytes a conflict-free warp load of this width moves per wavefront: 32 lanes' worth
 * below 4 bytes, a full 128-byte pass from 4 bytes on. */
static double wavefront_bytes(int width) {
    return width < 4 ? 32.0 * width : 128.0;
}

void print_model_tables(void) {
    printf("Shared memory: 32 banks x 4 bytes. Byte b is in bank (b / 4) %% 32; a wavefront\n"
           "serves each bank once, so one wavefront moves at most 128 bytes.\n\n");
    printf("Warp loads lane * stride * width (model, common/model/smem_model), wavefronts (x "
           "ideal):\n");
    printf("%6s |", "stride");
    for (int w = 0; w < N_WIDTHS; ++w) printf(" %8d B    |", WIDTHS[w]);
    printf("\n");
    for (unsigned s = 1; s <= MAX_STRIDE; ++s) {
        printf("%6u |", s);
        for (int w = 0; w < N_WIDTHS; ++w)
            printf(" %5d (x%-4g)|", model_wavefronts(WIDTHS[w], s),
                   (double)model_wavefronts(WIDTHS[w], s) / model_wavefronts(WIDTHS[w], 1));
        printf("\n");
    }
    printf("\nThe stride rule for 4-byte words: stride s puts gcd(s, 32) lanes on each bank it "
           "uses,\nso the conflict degree is gcd(s, 32): ");
    for (unsigned s = 1; s <= 8; ++s) printf("s=%u->%u ", s, smem_gcd(s, 32));
    printf("... every odd stride is free.\n"
           "8- and 16-byte accesses are served a half-warp / quarter-warp at a time (128 bytes\n"
           "each), so stride s costs gcd(s, 16) (8 B) or gcd(s, 8) (16 B) times the ideal.\n"
           "1- and 2-byte accesses: the whole warp is one group (32 lanes ask for at most 64\n"
           "bytes), and lanes reading different bytes or halves of one word share it, as lanes\n"
           "reading one address do (loads and stores alike). What conflicts is lanes in one bank\n"
           "but different words: stride s bytes (1 B) puts lane i in word i * s / 4, so strides\n"
           "1 to 4 cost 1 wavefront and stride 32 costs 8; 2-byte halves at stride 32 cost 16.\n");

    static const struct {
        const char* kind;
        const char* what;
    } cases[] = {{"broadcast", "every lane reads one address"},
                 {"neighbours", "lanes 2i and 2i+1 read one address"},
                 {"halves", "lane i and lane i+16 read one address"},
                 {"interleave", "conflict-free over the warp, 4-way in each quarter"}};
    printf("\nWhat the calibration on the H200 found (wavefronts ld/st; each cell a measured row,\n"
           "but the 1- and 2-byte cells of the last two rows, which are the model's):\n");
    printf("%-52s |", "");
    for (int w = 0; w < N_WIDTHS; ++w) printf(" %5d B |", WIDTHS[w]);
    printf("\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        printf("%-52s |", cases[c].what);
        for (int w = 0; w < N_WIDTHS; ++w) {
            smem_access a = pattern((unsigned)WIDTHS[w], cases[c].kind);
            int ld = smem_wavefronts(&a);
            a.op = SMEM_STORE;
            printf(" %3d/%-3d|", ld, smem_wavefronts(&a));
        }
        printf("\n");
    }
}

/* ---------------------------------------------------------------- measurements */

void print_measurements(const measurement* m, int n) {
    printf("\n%-8s %6s %7s %9s %9s %9s %9s %9s %8s\n", "variant", "model", "model", "median", "min",
           "max", "B/clk/SM", "measured", "measured");
    printf("%-8s %6s %7s %9s %9s %9s %9s %9s %8s\n", "", "wf", "ratio", "ms", "ms", "ms", "",
           "slowdown", "/model");
    for (int i = 0; i < n; ++i) {
        double ratio = (double)m[i].model_wf / m[i].ideal_wf;
        printf("%-8s %6d %7.2f %9.4f %9.4f %9.4f %9.1f %9.2f %8.3f\n", m[i].x.v.name, m[i].model_wf,
               ratio, m[i].t.median_ms, m[i].t.min_ms, m[i].t.max_ms, m[i].bytes_per_clk_sm,
               m[i].slowdown, m[i].slowdown / ratio);
    }
}

static const csv_column CSV_COLUMNS[] = {
    {"variant", CSV_TEXT, 0},
    {"width", CSV_INT, 0},
    {"stride", CSV_INT, 0},
    {"model_wavefronts", CSV_INT, 0},
    {"ideal_wavefronts", CSV_INT, 0},
    {"model_ratio", CSV_REAL, 4},
    CSV_TIMING_COLUMNS,
    {"bytes_per_clk_sm", CSV_REAL, 3},
    {"slowdown", CSV_REAL, 4},
    {"launches", CSV_INT, 0},
    /* what the ncu test holds the counters to: the strided loads, and the fill loop's stores */
    {"model_ld_wavefronts_per_request", CSV_INT, 0},
    {"model_st_wavefronts_per_request", CSV_INT, 0}};

void write_csv(const char* path, const course_device* dev, const course_args* args,
               const measurement* m, int n) {
    csv_table t;
    csv_table_open(&t, path, dev, args->command_line, CSV_COLUMNS,
                   (int)(sizeof CSV_COLUMNS / sizeof CSV_COLUMNS[0]));
    for (int i = 0; i < n; ++i) {
        csv_text(&t, "variant", m[i].x.v.name);
        csv_int(&t, "width", m[i].x.width);
        csv_int(&t, "stride", m[i].x.stride);
        csv_int(&t, "model_wavefronts", m[i].model_wf);
        csv_int(&t, "ideal_wavefronts", m[i].ideal_wf);
        csv_real(&t, "model_ratio", (double)m[i].model_wf / m[i].ideal_wf);
        csv_timing(&t, &m[i].t);
        csv_real(&t, "bytes_per_clk_sm", m[i].bytes_per_clk_sm);
        csv_real(&t, "slowdown", m[i].slowdown);
        csv_int(&t, "launches", m[i].launches);
        csv_int(&t, "model_ld_wavefronts_per_request", m[i].model_wf);
        csv_int(&t, "model_st_wavefronts_per_request", 1); /* contiguous 4-byte stores */
        csv_end_row(&t);
    }
    csv_table_close(&t);
}

/* ---------------------------------------------------------------- summary */

void print_summary(const course_device* dev, const char* program, const measurement* m, int n) {
    course_summary_header(dev, program);
    printf("| width | conflict-free B/clk/SM | of the limit | N-way points: measured slowdown / "
           "model ratio, worst |\n");
    printf("| ---: | ---: | ---: | ---: |\n");
    for (int w = 0; w < N_WIDTHS; ++w) {
        double free_bw = NAN, worst = 1;
        for (int i = 0; i < n; ++i) {
            if (m[i].x.width != WIDTHS[w]) continue;
            if (m[i].x.stride == 1) free_bw = m[i].bytes_per_clk_sm;
            double q = m[i].slowdown / ((double)m[i].model_wf / m[i].ideal_wf);
            if (m[i].model_wf > m[i].ideal_wf && fabs(q - 1) > fabs(worst - 1)) worst = q;
        }
        printf("| %d B | %.1f | %.0f%% of %.0f | %.3f |\n", WIDTHS[w], free_bw,
               100 * free_bw / wavefront_bytes(WIDTHS[w]), wavefront_bytes(WIDTHS[w]), worst);
    }
}
