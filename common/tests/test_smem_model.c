/* The shared-memory model: its textbook cases, its input checks, and every row the H200
 * measured (common/calibration/h200.csv), which it must reproduce exactly. */
#include "smem_model.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static unsigned gcd(unsigned a, unsigned b) {
    return b ? gcd(b, a % b) : a;
}

static void textbook_cases(void) {
    EXPECT(smem_bank(0) == 0 && smem_bank(4) == 1 && smem_bank(124) == 31 && smem_bank(128) == 0,
           "banks are 4-byte words mod 32");
    /* 4-byte strides: conflict degree gcd(stride, 32). */
    for (unsigned s = 1; s <= 64; ++s) {
        smem_access a = smem_strided(4, SMEM_LOAD, s, 0);
        EXPECT(smem_wavefronts(&a) == (int)gcd(s, 32), "stride %u: %d wavefronts", s,
               smem_wavefronts(&a));
    }
    /* Broadcast: one word for every lane is one wavefront. */
    smem_access b = smem_strided(4, SMEM_LOAD, 0, 64);
    EXPECT(smem_wavefronts(&b) == 1, "broadcast: %d", smem_wavefronts(&b));
    /* Ideal counts: 128 bytes per wavefront. */
    for (unsigned w = 4; w <= 16; w *= 2) {
        smem_access a = smem_strided(w, SMEM_LOAD, 1, 0);
        smem_report r;
        EXPECT(smem_analyze(&a, &r) == 0 && r.ideal == (int)w / 4 && r.wavefronts == r.ideal &&
                   r.excess == 0,
               "contiguous %u-byte: %d wavefronts, ideal %d", w, r.wavefronts, r.ideal);
    }
    /* One active lane: one wavefront whatever its width. */
    smem_access one = smem_strided(16, SMEM_LOAD, 1, 0);
    one.mask = 1u << 7;
    smem_report r;
    EXPECT(smem_analyze(&one, &r) == 0 && r.wavefronts == 1 && r.ideal == 1, "one lane: %d",
           r.wavefronts);
    /* Bad input. */
    smem_access bad = smem_strided(4, SMEM_LOAD, 1, 2);
    EXPECT(smem_invalid(&bad) != NULL && smem_wavefronts(&bad) == -1, "misaligned accepted");
    bad = smem_strided(12, SMEM_LOAD, 1, 0);
    EXPECT(smem_invalid(&bad) != NULL, "width 12 accepted");
}

/* Lines of the pattern file that are patterns (not comments). */
static int count_patterns(const char* path) {
    FILE* f = fopen(path, "r");
    EXPECT(f != NULL, "cannot open %s", path);
    if (!f) return -1;
    char line[2048];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += line[0] != '#' && line[0] != '\n';
    fclose(f);
    return n;
}

/* Each row: name,op,width,mask,wavefronts,instructions,offsets (space-separated). The table
 * must hold every pattern of the pattern file. */
static void calibration_table(const char* path, int patterns) {
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
        char name[64], op[16];
        smem_access a;
        int wavefronts, instructions, used = 0;
        int ok = sscanf(line, "%63[^,],%15[^,],%u,%x,%d,%d,%n", name, op, &a.width, &a.mask,
                        &wavefronts, &instructions, &used) == 6;
        const char* s = line + used;
        for (int i = 0; ok && i < SMEM_WARP; ++i) {
            int k = 0;
            ok = sscanf(s, "%u%n", &a.offset[i], &k) == 1;
            s += k;
        }
        EXPECT(ok, "unreadable row: %s", line);
        if (!ok) continue;
        a.op = strcmp(op, "store") ? SMEM_LOAD : SMEM_STORE;
        int model = smem_wavefronts(&a);
        EXPECT(instructions == 1, "%s %s: measured %d instructions", name, op, instructions);
        EXPECT(model == wavefronts, "%s %s (width %u, mask %08x): model %d, H200 measured %d", name,
               op, a.width, a.mask, model, wavefronts);
        ++rows;
    }
    fclose(f);
    EXPECT(rows == patterns, "%d calibration rows for %d patterns", rows, patterns);
    printf("calibration: %d measured rows checked\n", rows);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_smem_model CALIBRATION_CSV PATTERN_FILE\n");
        return 2;
    }
    textbook_cases();
    calibration_table(argv[1], count_patterns(argv[2]));
    return test_finish("test_smem_model");
}
