/* Chapter 01 exercise: the reference answer. */
#include "bank_basics.h"

/* 32 banks, each 4 bytes wide, interleaved: consecutive words go to consecutive banks. */
unsigned exercise_bank_of(unsigned byte_offset) {
    return (byte_offset / 4) % 32;
}

/* A bank delivers one word per wavefront, and lanes that read the same word share that delivery
 * (broadcast). So the warp needs as many wavefronts as its busiest bank has distinct words. */
int exercise_wavefronts_4byte(const unsigned offset[32], unsigned mask) {
    int most = 0;
    for (unsigned bank = 0; bank < 32; ++bank) {
        int distinct = 0;
        for (int lane = 0; lane < 32; ++lane) {
            if (!(mask >> lane & 1u) || exercise_bank_of(offset[lane]) != bank) continue;
            int seen = 0; /* did an earlier active lane already ask for this word? */
            for (int other = 0; other < lane && !seen; ++other)
                seen = (mask >> other & 1u) && offset[other] == offset[lane];
            distinct += !seen;
        }
        if (distinct > most) most = distinct;
    }
    return most;
}
