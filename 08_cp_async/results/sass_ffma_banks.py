#!/usr/bin/env python3
"""sass_ffma_banks.py SASS [NAME_REGEX...]: for each kernel in a `cuobjdump -sass` listing (those
whose mangled name matches a regex, or all), its FFMAs and how many of them read two or three
source registers from the same register bank without the operand reuse cache (bank = register
number % 2, a `.reuse` source not counted). More such FFMAs mean more dispatch stalls for the same
instructions: an edit elsewhere in a kernel can move ptxas's allocation of the FFMA loop (the
thirty-ninth session's NOTES, h100_inside_diag.txt), and this shows it without a GPU."""
import re
import sys

FFMA = re.compile(r"FFMA\s+R\d+,\s*(-?R\d+)(\.reuse)?,\s*(-?R\d+)(\.reuse)?,\s*(-?R\d+)(\.reuse)?")


def banks(body):
    n = pairs = triples = 0
    for m in FFMA.finditer(body):
        n += 1
        free = [int(m.group(i).lstrip("-")[1:]) % 2 for i in (1, 3, 5) if not m.group(i + 1)]
        if len(free) - len(set(free)) >= 1:
            pairs += 1
        if len(free) == 3 and len(set(free)) == 1:
            triples += 1
    return n, pairs, triples


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: sass_ffma_banks.py SASS [NAME_REGEX...]")
    pats = [re.compile(p) for p in sys.argv[2:]]
    text = open(sys.argv[1]).read()
    for part in text.split("Function : ")[1:]:
        name = part.split()[0]
        if pats and not any(p.search(name) for p in pats):
            continue
        n, pairs, triples = banks(part)
        if n:
            print(f"{name}: {n} FFMA, {pairs} with a bank pair, {triples} with a bank triple")


if __name__ == "__main__":
    main()
