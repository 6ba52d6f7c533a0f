#!/usr/bin/env python3
"""ncu_check.py --probe GPU_PROBE --kernels REGEX [--csv-suffix SUFFIX] -- PROGRAM [ARGS...]

Runs `PROGRAM ARGS --bench --reps 1 --csv TMP` under Nsight Compute, profiling the kernels whose
names match REGEX, and holds every benchmark row to its model: the shared-memory wavefronts per
load (store) instruction that the hardware counted over the row's launches must match the CSV's
model_ld_wavefronts_per_request (model_st_...; a negative model means "not predicted").
The CSV's `launches` column says how many profiled launches belong to each row, in order.
--csv-suffix: the rows are in the CSV the program writes beside TMP, TMP with .csv replaced by
SUFFIX.csv (chapter 08's _hgemm). A CSV with model_ldsm_wavefronts_per_request is held the same
way for ldmatrix, whose wavefronts and instructions Nsight Compute counts apart (the SASS counters
..._op_ldsm, as the calibration's h200_matrix.csv), with the loads' tolerance; the other two
columns may then be absent.

"Match": never fewer wavefronts than the model (less the CSV's rounding to 4 decimals), and at
most a tolerance more. An isolated instruction measures exactly what the model says (the
calibration holds every row exactly). In a benchmark kernel, where other warps load from global
memory and store to the tile meanwhile, a shared load can count a little more: 0.05 to 0.07
wavefronts per request over the model in the 32 KiB float4[32][64] tile of chapter 04 (32.05 for
32, 4.07 for 4: 1.74%), at most 0.33% in the other chapters' tiles (H200, 2026-11-30). Stores
are exact unless the stored values were loaded from global memory: then a 16-byte row store of a
padded tile can count up to 13% more wavefronts (the store experiment,
common/calibration/README.md: 4.000 per store with the values computed in registers, 4.03 to
4.52 with them loaded from global memory, whether or not a barrier separates the loads from the
stores), and chapter 06's smem_exercise (kernel 3 calling the exercise's steps), whose 4-byte
stores are all of that kind, counts 1.139 to 1.150 for 1 in three runs of one build (13.9 to
15.0%; H200, 2026-12-02). So loads are held within 5% and stores within 20%: room for that spread,
far below one wavefront per request, and every layout of the course differs from its neighbours
by 2x or more.
Exit codes: 0 agree, 1 disagree, 77 skipped (no ncu or no GPU).

--throughput: no comparison; for each row, on its last (warm) launch, what bounds the kernel:
the DRAM bytes it moved per second (Nsight Compute's dram__bytes_{read,write}.sum over
gpu__time_duration.sum) beside the shared-memory pipe's load, its wavefronts per SM per cycle
(at most one: 100%). Exit 0, or 1 if the program failed.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

TOLERANCE = {"ld": 0.05, "st": 0.20, "ldsm": 0.05}
CSV_ROUNDING = 0.5e-4  # the CSV writes the model with 4 decimals: 2.6667 for 8/3
LD_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
ST_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
LD_I = "smsp__sass_inst_executed_op_shared_ld.sum"
ST_I = "smsp__sass_inst_executed_op_shared_st.sum"
LDSM_WF = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"
LDSM_I = "sm__sass_inst_executed_op_ldsm.sum"
THROUGHPUT = ["dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum",
              "sm__cycles_elapsed.avg"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--throughput", action="store_true")
    ap.add_argument("--csv-suffix", default="")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    prog = [x for x in a.program if x != "--"]
    ncu = shutil.which("ncu") or ("/usr/local/cuda/bin/ncu"
                                  if os.path.exists("/usr/local/cuda/bin/ncu") else None)
    if not ncu:
        print("skipped: ncu not found (Nsight Compute comes with the CUDA toolkit: install the "
              "toolkit's nsight-compute component and put ncu on PATH)")
        return 77
    probe = subprocess.run([a.probe], capture_output=True, text=True)
    if probe.returncode == 77:
        print("skipped: no usable CUDA device")
        return 77
    if probe.returncode != 0:
        print(f"course_gpu_probe failed (exit {probe.returncode}): {probe.stderr.strip()}")
        return 1
    metrics = ",".join([LD_WF, ST_WF, LD_I, ST_I] + ([LDSM_WF, LDSM_I] if a.csv_suffix else []) +
                       (THROUGHPUT if a.throughput else []))
    with tempfile.TemporaryDirectory() as tmp:
        out_csv = os.path.join(tmp, "bench.csv")
        report = os.path.join(tmp, "report")
        run = subprocess.run([ncu, "--clock-control", "none", "--kernel-name", "regex:" + a.kernels,
                              "--metrics", metrics, "--export", report, "--force-overwrite"]
                             + prog + ["--bench", "--reps", "1", "--csv", out_csv],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.stdout.write(run.stdout[-3000:] + run.stderr[-3000:])
            print(f"profiled program failed with exit code {run.returncode}")
            return 1
        raw = subprocess.run([ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw",
                              "--print-units", "base", "--metrics", metrics],
                             capture_output=True, text=True, check=True).stdout
        if a.csv_suffix:
            out_csv = out_csv[:-len(".csv")] + a.csv_suffix + ".csv"
        with open(out_csv) as f:
            lines = f.read().splitlines()
        rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
        sms = next((int(l.split(":")[1].split(",")[0]) for l in lines if l.startswith("# sms:")), 0)
    table = list(csv.DictReader(raw.splitlines()))
    launches = [r for r in table if r.get("ID", "").strip().isdigit()]
    units = next((r for r in table if not r.get("ID", "").strip()), {})
    launches.sort(key=lambda r: int(r["ID"]))

    def num(r, k):
        return float(r[k].replace(",", ""))

    want = sum(int(r["launches"]) for r in rows)
    if want != len(launches):
        print(f"the CSV accounts for {want} launches, ncu profiled {len(launches)}")
        return 1
    if a.throughput:
        return throughput(rows, launches, sms, num, units)
    ops = [(wf, inst, op) for wf, inst, op in
           ((LD_WF, LD_I, "ld"), (ST_WF, ST_I, "st"), (LDSM_WF, LDSM_I, "ldsm"))
           if rows and f"model_{op}_wavefronts_per_request" in rows[0]]
    bad, i, worst = 0, 0, {op: 0.0 for _, _, op in ops}
    print(f"{'row':<22}" + "".join(f" {op + ' wf/req':>16}" for _, _, op in ops) +
          "   (measured / model)")
    for r in rows:
        group = launches[i:i + int(r["launches"])]
        i += int(r["launches"])
        cells, row_ok = [], True
        for wf, inst, op in ops:
            key = f"model_{op}_wavefronts_per_request"
            model = float(r[key])
            n = sum(num(g, inst) for g in group)
            measured = sum(num(g, wf) for g in group) / n if n else float("nan")
            if model < 0:
                cells.append(f"{measured:7.3f} /   -   ")
                continue
            ok = model - CSV_ROUNDING <= measured <= model * (1 + TOLERANCE[op])
            row_ok = row_ok and ok
            worst[op] = max(worst[op], measured / model - 1)
            cells.append(f"{measured:7.3f} / {model:<7.3f}" + ("" if ok else " MISMATCH"))
        bad += not row_ok
        label = f"{r.get('variant', '?')} {r.get('type', '')}".strip()
        print(f"{label:<22}" + "".join(f" {c:>16}" for c in cells))
    names = {"ld": "loads", "st": "stores", "ldsm": "ldmatrix"}
    print("largest excess of measured over model wavefronts: " +
          ", ".join(f"{names[op]} {100 * worst[op]:.2f}% (allowed {100 * TOLERANCE[op]:.0f}%)"
                    for _, _, op in ops))
    print(f"{len(rows) - bad} of {len(rows)} rows: hardware counters match the model"
          if not bad else f"{bad} rows where hardware counters and model disagree")
    return 1 if bad else 0


def throughput(rows, launches, sms, num, units):
    seconds = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3,
               "s": 1.0, "second": 1.0}[
        units.get("gpu__time_duration.sum", "nsecond").strip()]
    print(f"{'variant':<16} {'type':<7} {'shape':>11} {'kernel ms':>10} {'DRAM GB/s':>10} "
          f"{'smem pipe':>10}")
    i = 0
    for r in rows:
        n = int(r["launches"])
        i += n
        if not n:
            continue
        g = launches[i - 1]
        sec = num(g, "gpu__time_duration.sum") * seconds
        dram = (num(g, "dram__bytes_read.sum") + num(g, "dram__bytes_write.sum")) / sec / 1e9
        pipe = (num(g, LD_WF) + num(g, ST_WF)) / sms / num(g, "sm__cycles_elapsed.avg")
        shape = f"{r.get('rows', '?')}x{r.get('cols', '?')}"
        print(f"{r.get('variant', '?'):<16} {r.get('type', ''):<7} {shape:>11} {sec * 1e3:10.4f} "
              f"{dram:10.0f} {100 * pipe:9.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
