/* The shared-memory model: its textbook cases, its input checks, and every row the H200
 * measured in a calibration table (common/calibration/h200.csv: loads and stores;
 * h200_matrix.csv: ldmatrix and stmatrix), which it must reproduce exactly. */
#include "host/test_util.h"
#include "model/smem_model.h"

#include <stdlib.h>
#include <string.h>

static void textbook_cases(void) {
    EXPECT(smem_bank(0) == 0 && smem_bank(4) == 1 && smem_bank(124) == 31 && smem_bank(128) == 0,
           "banks are 4-byte words mod 32");
    /* 4-byte strides: conflict degree gcd(stride, 32). */
    for (unsigned s = 1; s <= 64; ++s) {
        smem_access a = smem_strided(4, SMEM_LOAD, s, 0);
        EXPECT(smem_wavefronts(&a) == (int)smem_gcd(s, 32), "stride %u: %d wavefronts", s,
               smem_wavefronts(&a));
    }
    /* Broadcast: one word for every lane is one wavefront. */
    smem_access b = smem_strided(4, SMEM_LOAD, 0, 64);
    EXPECT(smem_wavefronts(&b) == 1, "broadcast: %d", smem_wavefronts(&b));
    /* Ideal counts: 128 bytes per wavefront; 32 lanes of 1 or 2 bytes fit in one. */
    for (unsigned w = 1; w <= 16; w *= 2) {
        smem_access a = smem_strided(w, SMEM_LOAD, 1, 0);
        smem_report r;
        int want = w < 4 ? 1 : (int)w / 4;
        EXPECT(smem_analyze(&a, &r) == 0 && r.ideal == want && r.wavefronts == r.ideal &&
                   r.excess == 0,
               "contiguous %u-byte: %d wavefronts, ideal %d", w, r.wavefronts, r.ideal);
    }
    /* Lanes reading different bytes of one word share it: 32 lanes on 16 halves of bank 0's
     * words cost one wavefront per distinct word. */
    smem_access halves = smem_strided(2, SMEM_STORE, 1, 0);
    for (unsigned l = 0; l < 32; ++l) halves.offset[l] = (l / 2) * 128 + (l % 2) * 2;
    EXPECT(smem_wavefronts(&halves) == 16, "halves of 16 words in one bank: %d",
           smem_wavefronts(&halves));
    /* One active lane: one wavefront whatever its width. */
    smem_access one = smem_strided(16, SMEM_LOAD, 1, 0);
    one.mask = 1u << 7;
    smem_report r;
    EXPECT(smem_analyze(&one, &r) == 0 && r.wavefronts == 1 && r.ideal == 1, "one lane: %d",
           r.wavefronts);
    /* Bad input. */
    smem_access bad = smem_strided(4, SMEM_LOAD, 1, 2);
    EXPECT(smem_invalid(&bad) != NULL && smem_wavefronts(&bad) == -1, "misaligned accepted");
    bad = smem_strided(2, SMEM_LOAD, 1, 1);
    EXPECT(smem_invalid(&bad) != NULL, "odd offset accepted at width 2");
    static const unsigned bad_widths[] = {0, 3, 12, 32};
    for (int i = 0; i < 4; ++i) {
        bad = smem_strided(bad_widths[i], SMEM_LOAD, 1, 0);
        EXPECT(smem_invalid(&bad) != NULL, "width %u accepted", bad_widths[i]);
    }
}

/* ldmatrix / stmatrix under rule 4 (calibration/h200_matrix.csv holds the hardware's side). */
static void matrix_cases(void) {
    for (int op = SMEM_LDMATRIX; op <= SMEM_STMATRIX; ++op)
        for (unsigned matrices = 1; matrices <= 4; matrices *= 2) {
            /* 8 N consecutive 16-byte rows: one wavefront a matrix, the ideal. */
            smem_access a = smem_strided(16, (smem_op)op, 1, 0);
            a.mask = matrices == 4 ? 0xffffffffu : (1u << 8 * matrices) - 1;
            smem_report r;
            EXPECT(smem_analyze(&a, &r) == 0 && r.wavefronts == (int)matrices &&
                       r.ideal == (int)matrices,
                   "op %d x%u contiguous: %d wavefronts, ideal %d", op, matrices, r.wavefronts,
                   r.ideal);
            /* Rows 128 bytes apart (a 64-half row-major tile, one row a lane): 8 per matrix. */
            smem_access col = smem_strided(16, (smem_op)op, 8, 0);
            col.mask = a.mask;
            EXPECT(smem_wavefronts(&col) == 8 * (int)matrices, "op %d x%u stride 128: %d", op,
                   matrices, smem_wavefronts(&col));
            /* The same rows through Swizzle<3,4,3> (bytes): row i of each matrix at slot i. */
            for (int l = 0; l < 32; ++l) col.offset[l] = (unsigned)(l * 128 + (l % 8) * 16);
            EXPECT(smem_wavefronts(&col) == (int)matrices, "op %d x%u swizzled: %d", op, matrices,
                   smem_wavefronts(&col));
        }
    /* Identical rows in one matrix are read once; the same rows in all four matrices are not
     * merged (no rule 3). */
    smem_access same = smem_strided(16, SMEM_LDMATRIX, 0, 256);
    EXPECT(smem_wavefronts(&same) == 4, "one row for every lane: %d", smem_wavefronts(&same));
    smem_access bad = smem_strided(8, SMEM_LDMATRIX, 1, 0);
    EXPECT(smem_invalid(&bad) != NULL, "an 8-byte ldmatrix accepted");
    bad = smem_strided(16, SMEM_STMATRIX, 1, 0);
    bad.mask = 0xfff0u;
    EXPECT(smem_invalid(&bad) != NULL, "rows from lanes 4-15 accepted");
}

/* The pattern file's lines (not comments), each "name op width mask o0..o31". */
enum { MAX_PATTERNS = 4096 };
static char patterns[MAX_PATTERNS][1024];

static int read_patterns(const char* path) {
    FILE* f = fopen(path, "r");
    EXPECT(f != NULL, "cannot open %s", path);
    if (!f) return -1;
    int n = 0;
    while (n < MAX_PATTERNS && fgets(patterns[n], sizeof patterns[n], f))
        n += patterns[n][0] != '#' && patterns[n][0] != '\n';
    fclose(f);
    EXPECT(n > 0, "%s holds no pattern", path);
    return n;
}

/* The row as a pattern line would write it: "name op width mask o0 .. o31". */
static void as_pattern(const char* name, const char* op, const smem_access* a, char* out,
                       size_t len) {
    int used = snprintf(out, len, "%s %s %u %08x", name, op, a->width, a->mask);
    for (int i = 0; i < SMEM_WARP && used > 0 && (size_t)used < len; ++i)
        used += snprintf(out + used, len - (size_t)used, " %u", a->offset[i]);
}

/* Each row: name,op,width,mask,wavefronts,instructions,offsets (space-separated). The table
 * must hold exactly the pattern file's patterns, in its order. */
static void calibration_table(const char* path, int n_patterns) {
    FILE* f = fopen(path, "r");
    EXPECT(f != NULL, "cannot open %s", path);
    if (!f) return;
    char line[2048];
    int rows = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (!header) {
            header = 1;
            EXPECT(!strncmp(line, "name,op,width,mask,wavefronts,instructions,offsets", 50),
                   "unexpected header: %s", line);
            continue;
        }
        char name[64], op[24];
        smem_access a;
        unsigned matrices;
        int wavefronts, instructions, trans, used = 0;
        int ok = sscanf(line, "%63[^,],%23[^,],%u,%x,%d,%d,%n", name, op, &a.width, &a.mask,
                        &wavefronts, &instructions, &used) == 6 &&
                 smem_parse_op(op, &a.op, &matrices, &trans) == 0 &&
                 (!matrices || a.mask == (matrices == 4 ? 0xffffffffu : (1u << 8 * matrices) - 1));
        const char* s = line + used;
        for (int i = 0; ok && i < SMEM_WARP; ++i) {
            int k = 0;
            ok = sscanf(s, "%u%n", &a.offset[i], &k) == 1;
            s += k;
        }
        ok = ok && strspn(s, " \r\n") == strlen(s); /* exactly 32 offsets */
        EXPECT(ok, "unreadable row: %s", line);
        if (!ok) continue;
        char want[1024];
        as_pattern(name, op, &a, want, sizeof want);
        EXPECT(rows < n_patterns && !strncmp(patterns[rows], want, strlen(want)) &&
                   strspn(patterns[rows] + strlen(want), " \r\n") ==
                       strlen(patterns[rows] + strlen(want)),
               "row %d is not pattern %d of the pattern file: %s", rows + 1, rows + 1, want);
        int model = smem_wavefronts(&a);
        EXPECT(instructions == 1, "%s %s: measured %d instructions", name, op, instructions);
        EXPECT(model == wavefronts, "%s %s (width %u, mask %08x): model %d, the table %d", name, op,
               a.width, a.mask, model, wavefronts);
        ++rows;
    }
    fclose(f);
    EXPECT(rows > 0, "%s holds no measured row", path);
    EXPECT(rows == n_patterns, "%d calibration rows for %d patterns", rows, n_patterns);
    printf("calibration: %d measured rows checked\n", rows);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_smem_model CALIBRATION_CSV PATTERN_FILE\n");
        return 2;
    }
    textbook_cases();
    matrix_cases();
    calibration_table(argv[1], read_patterns(argv[2]));
    return test_finish("test_smem_model");
}
