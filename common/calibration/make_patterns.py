#!/usr/bin/env python3
"""Writes patterns.txt: the warp accesses the calibration measures on the GPU.

One line per pattern: name op width mask o0 ... o31 (byte offsets, one per lane; hex mask).
Every pattern is measured as a load and as a store. The set covers what the course's lessons use
(strides, padded and swizzled columns) and what tells the textbook rules apart (broadcasts,
lanes sharing addresses within and across half- and quarter-warps, partial masks, random).
Deterministic: run it again and the file is the same.
"""
import random
import sys

WARP = 32
FULL = 0xFFFFFFFF
patterns = []


def add(name, width, offsets, mask=FULL):
    assert len(offsets) == WARP and all(o % width == 0 and 0 <= o < 32768 - 16 for o in offsets)
    for op in ("load", "store"):
        patterns.append((f"{name}", op, width, mask, offsets))


lanes = range(WARP)
for w in (4, 8, 16):
    for s in range(1, 33):
        add(f"w{w}_stride{s}", w, [l * s * w for l in lanes])
    add(f"w{w}_broadcast0", w, [0] * WARP)
    add(f"w{w}_broadcast_off", w, [w * 7] * WARP)
    # Groups of g consecutive lanes share one address; groups are contiguous (no conflict) or
    # all in bank 0 (a conflict of 32/g distinct words in one bank).
    for g in (2, 4, 8, 16):
        add(f"w{w}_group{g}_contig", w, [(l // g) * w for l in lanes])
        add(f"w{w}_group{g}_samebank", w, [(l // g) * 128 for l in lanes])
    # Lane l and lane l^k share an address; distinct pairs contiguous.
    for k in (1, 2, 4, 8, 16):
        add(f"w{w}_pair_xor{k}", w, [min(l, l ^ k) * w for l in lanes])
    # Lane l reads what lane l % 16 (l % 8) reads: the halves (quarters) repeat each other.
    add(f"w{w}_halves_repeat", w, [(l % 16) * w for l in lanes])
    add(f"w{w}_quarters_repeat", w, [(l % 8) * w for l in lanes])
    # Conflict-free for the whole warp, but conflicted inside each half (quarter) warp.
    add(f"w{w}_interleave_halves", w, [((l % 16) * 2 + l // 16) * w for l in lanes])
    add(f"w{w}_interleave_quarters", w, [((l % 8) * 4 + l // 8) * w for l in lanes])
    # The same bank groups in every quarter, different words: conflict-free per quarter only
    # when quarters are served separately.
    add(f"w{w}_quarters_rows", w, [(l // 8) * 128 * 4 + (l % 8) * w for l in lanes])
    add(f"w{w}_halves_rows", w, [(l // 16) * 128 * 4 + (l % 16) * w for l in lanes])
    # Reversed and rotated contiguous rows.
    add(f"w{w}_reverse", w, [(WARP - 1 - l) * w for l in lanes])
    add(f"w{w}_rotate5", w, [((l + 5) % WARP) * w for l in lanes])
    # Partial masks on a contiguous row and on a 32-way column.
    for mname, mask in (("even", 0x55555555), ("low16", 0x0000FFFF), ("high16", 0xFFFF0000),
                        ("low8", 0x000000FF), ("lane0", 0x1), ("lane31", 0x80000000),
                        ("q0q2", 0x00FF00FF)):
        add(f"w{w}_row_{mname}", w, [l * w for l in lanes], mask)
        add(f"w{w}_column_{mname}", w, [l * 128 * (w // 4) for l in lanes], mask)
    # Column of a 32-column tile of w-byte elements, padded by p elements per row.
    for p in (0, 1, 2, 3, 4, 8, 16):
        add(f"w{w}_tile32_pad{p}_col3", w, [(l * (32 + p) + 3) * w for l in lanes])
    # XOR swizzle on 128-byte rows: 32/(w/4) elements per row, element index ^ (row % elems).
    per_row = 128 // w
    add(f"w{w}_xor128_col", w, [l * 128 + ((1 ^ (l % per_row)) * w) for l in lanes])
    add(f"w{w}_xor_tile32_col5", w, [(l * 32 + (5 ^ l)) * w for l in lanes])
    # Random offsets in 4 KiB, distinct and with repeats.
    rng = random.Random(1000 + w)
    slots = 4096 // w
    for i in range(4):
        add(f"w{w}_random_distinct{i}", w, [x * w for x in rng.sample(range(slots), WARP)])
        pool = rng.sample(range(slots), 8)
        add(f"w{w}_random_dups{i}", w, [rng.choice(pool) * w for _ in lanes])
    for i in range(2):
        add(f"w{w}_random_narrow{i}", w, [rng.randrange(64 // w * 8) * w for _ in lanes])
        add(f"w{w}_random_masked{i}", w, [rng.randrange(slots) * w for _ in lanes],
            rng.getrandbits(32) | 1)

# Rule 3 of the model (loads merge lane groups when neighbours share addresses): lane i and i^2
# share, with the pairs packed so that a half-warp covers 128 contiguous bytes; and pairs whose
# partner lane is inactive.
for w in (8, 16):
    add(f"w{w}_pair_xor2_packed", w, [((l >> 2) * 2 + (l & 1)) * w for l in lanes])
    add(f"w{w}_pair_xor1_even_lanes", w, [(l // 2) * w for l in lanes], 0x55555555)
    add(f"w{w}_pair_xor1_half_pairs", w, [(l // 2) * w for l in lanes], 0x33333333)
    add(f"w{w}_pair_xor1_one_broken", w, [(l // 2) * w if l != 5 else 40 * w for l in lanes])

# The accesses chapters 02 and 03 make.
for c in (0, 7):
    add(f"ch03_narrow_textbook_col{c}", 4, [4 * (l * 16 + (c ^ (l % 16))) for l in lanes])
    add(f"ch03_narrow_fixed_col{c}", 4, [4 * (l * 16 + (c ^ ((l // 2) % 16))) for l in lanes])
    add(f"ch03_xor64x32_rows32_col{c}", 4, [4 * ((32 + l) * 32 + (c ^ l)) for l in lanes])
    add(f"ch03_xor32x64_col{c + 37}", 4, [4 * (l * 64 + ((c + 37) ^ l)) for l in lanes])
    add(f"ch03_half2_element_xor_pair{c}", 4, [4 * (l * 32 + ((2 * c) ^ l) // 2) for l in lanes])
    add(f"ch03_half2_pair_xor_pair{c}", 4, [4 * (l * 32 + (c ^ l)) for l in lanes])
for r in (0, 5):
    add(f"ch03_narrow_textbook_row{r}", 4, [4 * (r * 16 + ((l % 16) ^ (r % 16))) for l in lanes],
        0x0000FFFF)
    add(f"ch03_xor_row{r}", 4, [4 * (r * 32 + (l ^ r)) for l in lanes])
for w in (4, 8, 16):
    for p in (0, 1, 4):
        add(f"ch02_w{w}_pad{p}_row5", w, [(5 * (32 + p) + l) * w for l in lanes])

# 1- and 2-byte accesses (char, half, bf16): 32 lanes ask for at most 64 bytes, and several
# lanes can touch one 4-byte word, each its own byte or half.
for w in (1, 2):
    per_word = 4 // w
    for s in list(range(1, 41)) + [48, 63, 64, 65, 66, 96, 127, 128, 129, 130, 132]:
        add(f"w{w}_stride{s}", w, [l * s * w for l in lanes])
    add(f"w{w}_broadcast0", w, [0] * WARP)
    add(f"w{w}_broadcast_off", w, [w * 7] * WARP)
    # Lanes share words: each its own byte/half of one word, of words in different banks, or of
    # words that all sit in bank 0.
    add(f"w{w}_one_word", w, [(l % per_word) * w for l in lanes])
    add(f"w{w}_two_words", w, [(l % (2 * per_word)) * w for l in lanes])
    add(f"w{w}_words_samebank", w, [(l // per_word) * 128 + (l % per_word) * w for l in lanes])
    add(f"w{w}_parts_samebank", w, [l * 128 + (l % per_word) * w for l in lanes])
    add(f"w{w}_word_repeats", w, [(l % 3 == 0) * 128 + (l % per_word) * w for l in lanes])
    for g in (2, 4, 8, 16):
        add(f"w{w}_group{g}_contig", w, [(l // g) * w for l in lanes])
        add(f"w{w}_group{g}_samebank", w, [(l // g) * 128 for l in lanes])
    for k in (1, 2, 4, 8, 16):
        add(f"w{w}_pair_xor{k}", w, [min(l, l ^ k) * 4 for l in lanes])
    add(f"w{w}_halves_repeat", w, [(l % 16) * 4 for l in lanes])
    add(f"w{w}_reverse", w, [(WARP - 1 - l) * w for l in lanes])
    add(f"w{w}_rotate5", w, [((l + 5) % WARP) * w for l in lanes])
    for mname, mask in (("even", 0x55555555), ("low16", 0x0000FFFF), ("lane0", 0x1),
                        ("q0q2", 0x00FF00FF)):
        add(f"w{w}_row_{mname}", w, [l * w for l in lanes], mask)
        add(f"w{w}_column_{mname}", w, [l * 128 for l in lanes], mask)
    rng = random.Random(2000 + w)
    slots = 4096 // w
    for i in range(4):
        add(f"w{w}_random_distinct{i}", w, [x * w for x in rng.sample(range(slots), WARP)])
        pool = rng.sample(range(slots), 8)
        add(f"w{w}_random_dups{i}", w, [rng.choice(pool) * w for _ in lanes])
        add(f"w{w}_random_narrow{i}", w, [rng.randrange(256 // w) * w for _ in lanes])
    add(f"w{w}_random_masked", w, [rng.randrange(slots) * w for _ in lanes],
        rng.getrandbits(32) | 1)
# Columns of 16-bit tiles, lane = row: half[32][32 + p] and half[32][64 + p]; rows of them.
for cols in (32, 64):
    for p in (0, 1, 2, 3, 4):
        for c in (0, 3):
            add(f"half{cols}_pad{p}_col{c}", 2, [2 * (l * (cols + p) + c) for l in lanes])
        add(f"half{cols}_pad{p}_row5", 2, [2 * (5 * (cols + p) + l) for l in lanes])
# Columns of char tiles: char[32][32 + p] and char[32][128 + p].
for cols in (32, 128):
    for p in (0, 1, 2, 3, 4):
        add(f"char{cols}_pad{p}_col5", 1, [l * (cols + p) + 5 for l in lanes])

out = sys.stdout
out.write("# Calibration patterns: name op width mask o0..o31 (byte offsets). "
          "Generated by make_patterns.py; do not edit.\n")
for name, op, w, mask, offs in patterns:
    out.write(f"{name} {op} {w} {mask:08x} " + " ".join(map(str, offs)) + "\n")
