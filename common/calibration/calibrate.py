#!/usr/bin/env python3
"""Calibrates the shared-memory model against the hardware, and re-checks the calibration.

  calibrate.py measure --probe BIN --patterns patterns.txt --out h200.csv
      runs smem_probe under Nsight Compute and writes the measured table (the committed test
      data: one row per pattern, wavefronts and instructions as the counters report them)
  calibrate.py compare --probe BIN --table h200.csv
      measures the table's patterns again on this GPU and fails on any row that differs
  calibrate.py sass --probe BIN
      checks the machine code: each probe kernel holds exactly one LDS/STS of its width
  calibrate.py stores --probe STORE_EXPERIMENT
      the 16-byte row stores of a full tile kernel, fed three ways (store_experiment.cu):
      store wavefronts per store instruction, measured against the model

Exit codes: 0 ok, 1 mismatch, 77 skipped (no GPU, no ncu or no cuobjdump).
"""
import argparse
import csv
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (wavefronts, instructions) per op family. ldmatrix and stmatrix are counted apart from the
# shared loads and stores, by the SASS-patched counters (ncu --query-metrics on the H200 lists
# no l1tex__..._op_ldsm hardware counter); only the families a pattern file holds are asked for.
METRICS = {
    "load": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             "smsp__sass_inst_executed_op_shared_ld.sum"),
    "store": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
              "smsp__sass_inst_executed_op_shared_st.sum"),
    "ldmatrix": ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
                 "sm__sass_inst_executed_op_ldsm.sum"),
    "stmatrix": ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
                 "sm__sass_inst_executed_op_shared_stsm.sum"),
}
# A pattern's op: load, store, or ldmatrix / stmatrix .x1 .x2 .x4, .trans or not.
OPS = {"load", "store"} | {f"{k}.x{n}{t}" for k in ("ldmatrix", "stmatrix") for n in (1, 2, 4)
                           for t in ("", ".trans")}


def family(op):
    """load, store, ldmatrix or stmatrix."""
    return op.split(".")[0]
SKIP = 77
NCU_MISSING = ("ncu not found (Nsight Compute comes with the CUDA toolkit: install the toolkit's "
               "nsight-compute component and put ncu on PATH)")
CUOBJDUMP_MISSING = ("cuobjdump not found (it comes with the CUDA toolkit: install the toolkit's "
                     "cuobjdump component and put its bin/ on PATH)")


def skip(why):
    print(f"skipped: {why}")
    sys.exit(SKIP)


def find_tool(name):
    path = shutil.which(name)
    for d in ("/usr/local/cuda/bin", "/opt/nvidia/nsight-compute"):
        if not path and os.path.exists(os.path.join(d, name)):
            path = os.path.join(d, name)
    return path


def require_gpu(gpu_probe):
    if not gpu_probe:
        return
    probe = subprocess.run([gpu_probe], capture_output=True, text=True)
    if probe.returncode == SKIP:
        skip("no usable CUDA device")
    if probe.returncode != 0:
        sys.exit(f"course_gpu_probe failed (exit {probe.returncode}): {probe.stderr.strip()}")


def read_patterns(path):
    """[(name, op, width, mask, [offsets])] from a pattern file."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.split()
            if len(p) != 36 or p[1] not in OPS or \
                    not all(x.isdigit() for x in [p[2]] + p[4:]) or \
                    not all(c in "0123456789abcdefABCDEF" for c in p[3]):
                sys.exit(f"{path}: bad pattern line: {line.strip()[:80]}")
            out.append((p[0], p[1], int(p[2]), int(p[3], 16), [int(x) for x in p[4:36]]))
    if not out:
        sys.exit(f"{path} holds no pattern")
    return out


def write_patterns(patterns, path):
    with open(path, "w") as f:
        for name, op, w, mask, offs in patterns:
            f.write(f"{name} {op} {w} {mask:08x} " + " ".join(map(str, offs)) + "\n")


def ncu_version(ncu):
    out = subprocess.run([ncu, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"Version ([0-9.]+)", out)
    return m.group(1) if m else "unknown"


def profile(ncu, command, metrics):
    """Runs command under ncu; returns (its stdout, one dict of metric values per profiled
    launch, in launch order)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report")
        run = subprocess.run([ncu, "--clock-control", "none", "--metrics", ",".join(metrics),
                              "--export", report, "--force-overwrite"] + command,
                             capture_output=True, text=True)
        if run.returncode == SKIP:  # the program's own skip, with its reason (ncu passes it on)
            why = [l for l in run.stdout.splitlines() if l.startswith("skipped: ")]
            skip(why[0][len("skipped: "):] if why else f"{command[0]} skipped (exit {SKIP})")
        if run.returncode != 0:
            sys.stderr.write(run.stdout[-4000:] + run.stderr[-4000:])
            sys.exit(f"ncu failed with exit code {run.returncode}")
        raw = subprocess.run([ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw",
                              "--print-units", "base", "--metrics", ",".join(metrics)],
                             capture_output=True, text=True, check=True).stdout
    rows = [r for r in csv.DictReader(raw.splitlines()) if r.get("ID", "").strip().isdigit()]
    rows.sort(key=lambda r: int(r["ID"]))
    return run.stdout, [{m: float(r[m].replace(",", "")) for m in metrics} for r in rows]


def measure(probe, patterns, ncu):
    """Runs one launch per pattern under ncu; returns [(wavefronts, instructions)] in order."""
    metrics = sorted({m for p in patterns for m in METRICS[family(p[1])]})
    with tempfile.TemporaryDirectory() as tmp:
        pfile = os.path.join(tmp, "patterns.txt")
        write_patterns(patterns, pfile)
        _, rows = profile(ncu, [probe, pfile], metrics)
    if len(rows) != len(patterns):
        sys.exit(f"ncu profiled {len(rows)} launches for {len(patterns)} patterns")
    out = []
    for (name, op, *_), r in zip(patterns, rows):
        wf, inst = METRICS[family(op)]
        out.append((int(r[wf]), int(r[inst])))
    return out


def gpu_description():
    q = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,compute_cap",
                        "--format=csv,noheader"], capture_output=True, text=True)
    return [s.strip() for s in q.stdout.splitlines()[0].split(",")] if q.returncode == 0 else \
        ["unknown", "unknown", "unknown"]


def read_table(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        offsets = r["offsets"].split()
        if len(offsets) != 32:
            sys.exit(f"{path}: row {r['name']} {r['op']} has {len(offsets)} offsets, not 32")
        rows.append(((r["name"], r["op"], int(r["width"]), int(r["mask"], 16),
                      [int(x) for x in offsets]),
                     (int(r["wavefronts"]), int(r["instructions"]))))
    if not rows:
        sys.exit(f"{path} holds no measured row")
    return rows


def cmd_measure(a):
    patterns = read_patterns(a.patterns)
    ncu = find_tool("ncu") or skip(NCU_MISSING)
    require_gpu(a.gpu_probe)
    results = measure(a.probe, patterns, ncu)
    name, driver, cc = gpu_description()
    today = datetime.date.today().isoformat()
    with open(a.out, "w") as f:
        f.write(f"# Shared-memory wavefronts measured by Nsight Compute, one warp instruction per "
                f"launch (common/calibration/calibrate.py)\n")
        f.write(f"# gpu: {name}\n# compute capability: {cc}\n# driver: {driver}\n")
        f.write(f"# ncu: {ncu_version(ncu)}, --clock-control none\n# date: {today}\n")
        for fam in sorted({family(p[1]) for p in patterns}):
            f.write(f"# {fam}: wavefronts {METRICS[fam][0]}, instructions {METRICS[fam][1]}\n")
        f.write("name,op,width,mask,wavefronts,instructions,offsets\n")
        for (pname, op, w, mask, offs), (wf, inst) in zip(patterns, results):
            f.write(f"{pname},{op},{w},{mask:08x},{wf},{inst},{' '.join(map(str, offs))}\n")
    bad = [p[0] + ":" + p[1] for p, (wf, inst) in zip(patterns, results) if inst != 1]
    print(f"measured {len(patterns)} patterns into {a.out}")
    if bad:
        sys.exit(f"{len(bad)} patterns did not execute exactly one instruction: {bad[:5]}")


def table_compute_capability(path):
    with open(path) as f:
        for line in f:
            if line.startswith("# compute capability:"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def cmd_compare(a):
    table = read_table(a.table)
    ncu = find_tool("ncu") or skip(NCU_MISSING)
    require_gpu(a.gpu_probe)
    want_cc, have_cc = table_compute_capability(a.table), gpu_description()[2]
    if want_cc != have_cc:
        skip(f"the table was measured on compute capability {want_cc}, this GPU is {have_cc}; "
             f"measure your own with: calibrate.py measure")
    results = measure(a.probe, [p for p, _ in table], ncu)
    bad = 0
    for (p, (wf, inst)), (mwf, minst) in zip(table, results):
        if (wf, inst) != (mwf, minst):
            bad += 1
            print(f"MISMATCH {p[0]} {p[1]}: table {wf} wavefronts/{inst} instr, "
                  f"measured {mwf}/{minst}")
    print(f"{len(table) - bad} of {len(table)} calibration rows measured again identically")
    sys.exit(1 if bad else 0)


# SASS width modifiers of LDS/STS: none for 4 bytes.
SASS_WIDTH = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}


def sass_width(modifiers):
    """Bytes of an LDS/STS with these modifiers (".U16", ".128", "")."""
    widths = [SASS_WIDTH[m] for m in modifiers.split(".") if m in SASS_WIDTH]
    return widths[0] if widths else 4


def cmd_sass(a):
    cuobjdump = find_tool("cuobjdump") or skip(CUOBJDUMP_MISSING)
    sass = subprocess.run([cuobjdump, "--dump-sass", a.probe], capture_output=True, text=True,
                          check=True).stdout
    kernels = re.split(r"\n\s*Function : ", sass)[1:]
    checked, bad = set(), 0
    for k in kernels:
        name = k.split("\n", 1)[0].strip()
        mm = re.match(r"_Z\d+probe_(ldmatrix|stmatrix)ILi(\d)ELi(\d)EE", name)
        if mm:  # one LDSM / STSM .16.M88 (.MT88 with .trans), .2 / .4 for 2 / 4 matrices
            kind, n, t = mm.group(1), int(mm.group(2)), int(mm.group(3))
            found = re.findall(r"\b(LDSM|STSM|LDS|STS)(?![A-Z])((?:\.[A-Z0-9]+)*)", k)
            want = ("LDSM" if kind == "ldmatrix" else "STSM",
                    ".16." + ("MT88" if t else "M88") + ("" if n == 1 else f".{n}"))
            ok = found == [want]
            print(f"{'ok ' if ok else 'BAD'} probe_{kind}<{n}, {t}>: {[a + b for a, b in found]}")
            checked.add((kind, n, t))
            bad += not ok
            continue
        m = re.match(r"_Z\d+probe_(load|store)ILi(\d+)EE", name)
        if not m:
            continue
        op, width = m.group(1), int(m.group(2))
        found = re.findall(r"\b(LDS|STS)(?![A-Z])((?:\.[A-Z0-9]+)*)", k)
        ok = len(found) == 1 and found[0][0] == ("LDS" if op == "load" else "STS") and \
            sass_width(found[0][1]) == width
        print(f"{'ok ' if ok else 'BAD'} probe_{op}<{width}>: {[m + s for m, s in found]}")
        checked.add((op, width))
        bad += not ok
    want = {(op, w) for op in ("load", "store") for w in (1, 2, 4, 8, 16)} | \
        {(k, n, t) for k in ("ldmatrix", "stmatrix") for n in (1, 2, 4) for t in (0, 1)}
    if checked != want:
        sys.exit(f"expected the {len(want)} probe kernels in the SASS, found {sorted(checked)}")
    sys.exit(1 if bad else 0)


def cmd_stores(a):
    ncu = find_tool("ncu") or skip(NCU_MISSING)
    require_gpu(a.gpu_probe)
    wf, inst = METRICS["store"]
    out, rows = profile(ncu, [a.probe], [wf, inst])
    launches = [l.split() for l in out.splitlines()
                if l.split()[:1] in (["direct"], ["staged"], ["registers"])]
    if len(rows) != len(launches):
        sys.exit(f"ncu profiled {len(rows)} launches, the experiment made {len(launches)}")
    print(f"{'values':<10} {'pad':>4} {'model':>6} {'measured':>9} {'excess':>8}")
    for (mode, pad, model), r in zip(launches, rows):
        per = r[wf] / r[inst]
        print(f"{mode:<10} {pad:>4} {int(model):>6} {per:>9.4f} {100 * (per / int(model) - 1):>7.2f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--probe", required=True)
    m.add_argument("--patterns", required=True)
    m.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--probe", required=True)
    c.add_argument("--table", required=True)
    s = sub.add_parser("sass")
    s.add_argument("--probe", required=True)
    t = sub.add_parser("stores")
    t.add_argument("--probe", required=True)
    for p in (m, c, t):
        p.add_argument("--gpu-probe", help="course_gpu_probe: skip (77) when it finds no GPU")
    a = ap.parse_args()
    {"measure": cmd_measure, "compare": cmd_compare, "sass": cmd_sass,
     "stores": cmd_stores}[a.cmd](a)


if __name__ == "__main__":
    main()
