#!/usr/bin/env python3
"""sass_loop_compare.py A.sass KERNEL_A B.sass KERNEL_B: compares the innermost loop that holds
2,000 FFMAs or more (a walking kernel's slice loop) of two kernels in `cuobjdump -sass` listings
(mangled names): its length, the instructions identical in place, and difflib's matching share.
REGS=any compares with every register renamed R, to tell a new schedule from a new allocation.
A loop that matches main's walk instruction for instruction runs at its speed; one edit anywhere
in the kernel can re-schedule it (the forty-second and forty-sixth sessions' NOTES)."""
import difflib
import os
import re
import sys

LINE = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);")
BRANCH = re.compile(r"BRA\s.*?(0x[0-9a-f]+)")


def kernel(path, name):
    for part in open(path).read().split("Function : ")[1:]:
        if part.split("\n", 1)[0].strip() == name:
            return [(int(m.group(1), 16), m.group(2).strip())
                    for m in map(LINE.match, part.split("\n")) if m]
    sys.exit(f"{path}: no kernel {name}")


def slice_loop(ins):
    at = {a: i for i, (a, _) in enumerate(ins)}
    best = None
    for i, (a, text) in enumerate(ins):
        m = BRANCH.search(text)
        if not m or int(m.group(1), 16) >= a:
            continue
        j = at[int(m.group(1), 16)]
        ffmas = sum("FFMA" in t for _, t in ins[j:i + 1])
        if ffmas >= 2000 and (best is None or i - j < best[1] - best[0]):
            best = (j, i)
    if best is None:
        sys.exit("no loop of 2,000 FFMAs")
    return ins[best[0]:best[1] + 1]


def words(ins):
    out = [re.sub(r"0x[0-9a-f]+", "X", t) for _, t in ins]
    return [re.sub(r"\bU?R\d+", "R", t) for t in out] if os.environ.get("REGS") == "any" else out


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: sass_loop_compare.py A.sass KERNEL_A B.sass KERNEL_B")
    a = words(slice_loop(kernel(sys.argv[1], sys.argv[2])))
    b = words(slice_loop(kernel(sys.argv[3], sys.argv[4])))
    same = sum(x == y for x, y in zip(a, b))
    ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    print(f"loop A {len(a)} instructions, B {len(b)}; identical in place {same}; "
          f"matching share {ratio:.3f}")


if __name__ == "__main__":
    main()
