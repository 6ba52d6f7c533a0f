/* Shared-memory bank model. PRELIMINARY: rules to be calibrated against the H200. */
#include "smem_model.h"

#include <string.h>

const char* smem_invalid(const smem_access* a) {
    if (a->width != 4 && a->width != 8 && a->width != 16) return "width must be 4, 8 or 16 bytes";
    for (int lane = 0; lane < SMEM_WARP; ++lane)
        if ((a->mask >> lane & 1u) && a->offset[lane] % a->width != 0)
            return "an offset is not a multiple of the access width";
    return 0;
}

/* Distinct words of one bank, kept as a small set. */
typedef struct {
    int n;
    unsigned word[SMEM_WARP * 4];
} word_set;

static void add_word(word_set* s, unsigned word) {
    for (int i = 0; i < s->n; ++i)
        if (s->word[i] == word) return;
    s->word[s->n++] = word;
}

int smem_analyze(const smem_access* a, smem_report* r) {
    if (smem_invalid(a)) return -1;
    memset(r, 0, sizeof *r);
    static word_set banks[SMEM_BANKS];
    memset(banks, 0, sizeof banks);
    int active = 0;
    for (int lane = 0; lane < SMEM_WARP; ++lane) {
        if (!(a->mask >> lane & 1u)) continue;
        ++active;
        for (unsigned b = 0; b < a->width; b += SMEM_BANK_BYTES) {
            unsigned byte = a->offset[lane] + b;
            unsigned bank = smem_bank(byte);
            add_word(&banks[bank], byte / SMEM_BANK_BYTES);
            r->lanes_in_bank[bank] |= 1u << lane;
        }
    }
    int most = 0;
    for (int bank = 0; bank < SMEM_BANKS; ++bank) {
        r->words_in_bank[bank] = banks[bank].n;
        if (banks[bank].n > most) most = banks[bank].n;
    }
    r->ideal = (active * (int)a->width + SMEM_WAVEFRONT_BYTES - 1) / SMEM_WAVEFRONT_BYTES;
    r->wavefronts = most;
    r->excess = r->wavefronts > r->ideal ? r->wavefronts - r->ideal : 0;
    return 0;
}

int smem_wavefronts(const smem_access* a) {
    smem_report r;
    return smem_analyze(a, &r) == 0 ? r.wavefronts : -1;
}

smem_access smem_strided(unsigned width, smem_op op, unsigned stride_elems, unsigned base) {
    smem_access a;
    a.width = width;
    a.op = op;
    a.mask = 0xffffffffu;
    for (int lane = 0; lane < SMEM_WARP; ++lane) a.offset[lane] = base + lane * stride_elems * width;
    return a;
}
