#!/usr/bin/env python3
"""sass_loop_mix.py SASS_FILE [NAME_REGEX]: the instruction mix of each kernel's main loop.

Reads `cuobjdump --dump-sass` output (scripts/gpu_suite.sh writes one per chapter program:
logs/sass_NN_topic.txt) and, for every function whose mangled name matches NAME_REGEX (default:
all), finds its main loop: the shortest backward branch whose body holds (to within 10%) the
most FFMA instructions. Prints the loop's static instruction count, its FFMAs and their share,
and the commonest opcodes. Static: a path the loop skips at run time (an edge case) is counted
all the same.
"""
import collections
import re
import sys


def functions(path):
    name, body = None, []
    for line in open(path):
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and name:
            body.append((int(m.group(1), 16), m.group(2)))
    if name:
        yield name, body


def opcode(text):
    words = text.split()
    op = words[1] if words[0].startswith("@") else words[0]
    return op.split(".")[0]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    pattern = re.compile(sys.argv[2] if len(sys.argv) == 3 else ".")
    for name, body in functions(sys.argv[1]):
        if not pattern.search(name):
            continue
        loops = []
        for addr, text in body:
            m = re.search(r"BRA (?:\S+, )?0x([0-9a-f]+)", text)
            if m and int(m.group(1), 16) < addr:
                loop = [t for a, t in body if int(m.group(1), 16) <= a <= addr]
                ffma = sum(opcode(t) == "FFMA" for t in loop)
                if ffma:
                    loops.append((ffma, loop))
        if not loops:
            continue
        # The shortest of the loops holding (nearly) the most FFMAs: a retry branch that the
        # compiler places after the epilogue (an mbarrier wait's) spans the main loop and more.
        most = max(f for f, _ in loops)
        best = min((l for l in loops if l[0] >= 0.9 * most), key=lambda l: len(l[1]))
        mix = collections.Counter(opcode(t) for t in best[1])
        total = sum(mix.values())
        top = ", ".join(f"{op} {n}" for op, n in mix.most_common(8))
        print(f"{name}\n  loop: {total} instructions, {best[0]} FFMA ({100 * best[0] / total:.1f}%): {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
