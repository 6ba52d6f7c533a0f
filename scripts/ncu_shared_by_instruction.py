#!/usr/bin/env python3
"""ncu_shared_by_instruction.py REPORT.ncu-rep: the shared-memory wavefronts of every LDS/STS (and
generic LD/ST that reached shared memory) of a kernel profiled with `--section SourceCounters`,
one SASS instruction per line: how often warps executed it (warps whose lanes were all predicated
off included), its wavefronts, the ideal (the fewest its active lanes' bytes need) and their
ratio, the conflict degree (1 = conflict-free). It is how chapter 07 measures each step of a tree.
Prints the report's columns and exits 1 if this ncu names them differently."""
import csv
import io
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    text = subprocess.run([ncu, "--import", sys.argv[1], "--page", "source", "--print-source",
                           "sass", "--csv"], capture_output=True, text=True, check=True).stdout
    rows = list(csv.reader(io.StringIO(text)))
    head = next((i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r)), None)
    if head is None:
        print(text[:3000])
        return 1
    cols = [c.strip() for c in rows[head]]

    def col(name):
        return cols.index(name) if name in cols else None

    src, ex = col("Source"), col("Instructions Executed")
    wf, ideal = col("L1 Wavefronts Shared"), col("L1 Wavefronts Shared Ideal")
    if None in (src, ex, wf):
        print("columns:", cols)
        return 1

    def num(s):
        try:
            return float(s.replace(",", ""))
        except ValueError:
            return 0.0

    print(f"{'SASS':<44} {'executed':>9} {'wavefronts':>11} {'ideal':>8} {'wf / ideal':>10}")
    for r in rows[head + 1:]:
        if len(r) <= max(src, ex, wf) or num(r[wf]) == 0:
            continue
        n, w = num(r[ex]), num(r[wf])
        i = num(r[ideal]) if ideal is not None else float("nan")
        print(f"{r[src].strip()[:44]:<44} {n:9.0f} {w:11.0f} {i:8.0f} {w / i if i else 0:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
