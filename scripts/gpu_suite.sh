#!/usr/bin/env bash
# gpu_suite.sh [--calibrate] [CHAPTER...]: everything a GPU machine should run for a change, in
# one go: build, (re-measure the model's calibration table), the store experiment, the test
# suite with every label, the course run (CSVs, plots, SUMMARY.md), and SASS listings.
# CHAPTER (e.g. 02_padding) limits the course run, the tests and the exercise stubs to those
# chapters; `common` names the shared part (common/ and calibration tests, the store experiment,
# the probe's SASS). None means all. The whole suite in three calls of under 8 minutes each:
#   gpu_suite.sh common 01_bank_basics 02_padding 03_xor_swizzle 04_cute_general
#   gpu_suite.sh 05_transpose 06_gemm_tiling 07_warp_shuffle
#   gpu_suite.sh 08_cp_async
# Logs and results go to $OUT (default build/gpu_suite), packed into gpu_suite.tar.gz, with the
# CTest summary in ctest_summary.txt.
# CTEST_BUDGET (seconds, default 420) bounds the test step so that the results still get packed.
# CTEST_ARGS adds to ctest's command line, and SUITE_TESTS_ONLY=1 leaves out all but the build
# and the tests: chapter 08 in two calls, on one warm machine (its build kept between them):
#   CTEST_ARGS="-LE sanitize" gpu_suite.sh 08_cp_async
#   SUITE_TESTS_ONLY=1 CTEST_ARGS="-L sanitize -j 4" gpu_suite.sh 08_cp_async
# (the sanitizers time nothing, so four run at once: 137 s of tests against 371 one by one, H100)
# (each call packs $OUT/gpu_suite.tar.gz: fetch it, or give the second call its own OUT)
# COURSE_GIT_COMMIT names the commit for the CSV metadata where the tree has no .git.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$src/build/gpu_suite}
calibrate=0
if [ "${1:-}" = "--calibrate" ]; then calibrate=1; shift; fi
all=1         # no CHAPTER: everything
with_common=1 # the shared part: with no CHAPTER, or when `common` is named
chapters=()
if [ $# -gt 0 ]; then
  all=0
  with_common=0
  for c in "$@"; do
    if [ "$c" = common ]; then with_common=1; else chapters+=("$c"); fi
  done
fi
mkdir -p "$out/logs"
cd "$src"
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
named() { [ $all -eq 1 ] || [[ " ${chapters[*]} " == *" $1 "* ]]; }
tests_only=${SUITE_TESTS_ONLY:-0}
# extras: the steps besides the build and the tests (none with SUITE_TESTS_ONLY=1)
extras() { [ "$tests_only" != 1 ]; }

step "machine"
{ nvidia-smi; nvcc --version | tail -n 2; ncu --version | tail -n 1; cmake --version | head -n 1; } \
  2>&1 | tee "$out/logs/machine.txt"

# CuTe's headers for 04_cute_general.cute: a GPU machine reaches no package index, so the
# nvidia-cutlass wheel travels in .whl/ (pip download --no-deps -d .whl nvidia-cutlass).
if ls .whl/nvidia_cutlass-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --target /tmp/course_site .whl/nvidia_cutlass-*.whl &&
    export PYTHONPATH=/tmp/course_site${PYTHONPATH:+:$PYTHONPATH}
fi

step "commit recorded in the CSVs: ${COURSE_GIT_COMMIT:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}"
step "build"
cmake --preset default >"$out/logs/configure.txt" 2>&1 &&
  cmake --build --preset default -j "$(nproc)" >"$out/logs/build.txt" 2>&1 ||
  { tail -n 50 "$out/logs/build.txt"; exit 1; }

extras && step "sass"
extras && for b in build/tools/smem_probe build/bin/[0-9][0-9]_*; do
  name=$(basename "$b")
  if [ "$name" = smem_probe ] && [ $with_common -eq 1 ] || named "$name"; then
    cuobjdump --dump-sass "$b" >"$out/logs/sass_$name.txt" 2>&1
  fi
done

if [ $calibrate -eq 1 ]; then
  step "calibration: every pattern under ncu"
  time python3 common/calibration/calibrate.py measure --probe build/tools/smem_probe \
    --patterns common/calibration/patterns.txt --out "$out/h200_calibration.csv" \
    --gpu-probe build/bin/course_gpu_probe 2>&1 | tail -n 5
  time python3 common/calibration/calibrate.py measure --probe build/tools/smem_probe \
    --patterns common/calibration/patterns_matrix.txt --out "$out/h200_matrix.csv" \
    --gpu-probe build/bin/course_gpu_probe 2>&1 | tail -n 5
fi

if [ $with_common -eq 1 ] && extras; then
  step "store experiment (16-byte row stores in a full kernel)"
  python3 common/calibration/calibrate.py stores --probe build/tools/store_experiment \
    --gpu-probe build/bin/course_gpu_probe 2>&1 | tee "$out/logs/stores.txt"
fi

extras && step "course"
if ! extras; then
  :
elif [ $all -eq 1 ]; then
  cmake --build --preset course >"$out/logs/course.txt" 2>&1
else
  for c in "${chapters[@]+"${chapters[@]}"}"; do
    mkdir -p build/results
    ./build/bin/"$c" --csv "build/results/$c.csv" >"build/results/$c.log" 2>&1
    echo "$c: exit $?" | tee -a "$out/logs/course.txt"
  done
fi
extras && tail -n 40 "$out/logs/course.txt"
extras && cp -r build/results build/plots "$out/" 2>/dev/null

step "tests (every label)"
filter=()
if [ $all -eq 0 ]; then
  names=("${chapters[@]+"${chapters[@]}"}")
  [ $with_common -eq 1 ] && names+=(common calibration)
  filter=(-R "^($(IFS='|'; echo "${names[*]}"))\.")
fi
# Each test has its own timeout (cmake/Course.cmake: 600 s for sanitize and ncu, 300 s others).
read -r -a ctest_args <<<"${CTEST_ARGS:-}" # words, never globbed
(cd build && time timeout "${CTEST_BUDGET:-420}" ctest --output-on-failure "${filter[@]}" \
  "${ctest_args[@]+"${ctest_args[@]}"}") \
  >"$out/logs/ctest.txt" 2>&1
cp build/Testing/Temporary/LastTest.log "$out/logs/ctest_all_output.txt" 2>/dev/null
grep -E "tests passed|tests failed" "$out/logs/ctest.txt" | tee "$out/ctest_summary.txt"
grep -E "largest excess|rows: hardware|rows where|calibration rows measured" \
  "$out/logs/ctest_all_output.txt"
sed -n '/Label Time Summary/,$p' "$out/logs/ctest.txt"
echo "slowest tests (seconds):"
sed -n 's/.*Test *#[0-9]*: \([^ ]*\) .*Passed *\([0-9.]*\) sec/\2 \1/p' "$out/logs/ctest.txt" |
  sort -rn | head -n 6

# Chapter 05's lesson: what bounds each transpose, DRAM or the shared-memory pipe.
if named 05_transpose && extras; then
  step "05_transpose: DRAM and shared-memory throughput per variant (ncu, 8192x8192)"
  python3 scripts/ncu_check.py --throughput --probe build/bin/course_gpu_probe \
    --kernels "transpose|copy_tile" -- build/bin/05_transpose --shape 8192x8192 2>&1 |
    tee "$out/logs/05_transpose_bottleneck.txt"
fi

# Chapter 07's lesson: kernel 2's bank conflicts measured step by step, per SASS instruction.
if named 07_warp_shuffle && extras; then
  step "07_warp_shuffle: kernel 2's shared-memory wavefronts per instruction (ncu source counters)"
  ncu --clock-control none --section SourceCounters --kernel-name reduce_strided --launch-count 1 \
    --export /tmp/course_strided --force-overwrite build/bin/07_warp_shuffle --bench --reps 1 \
    --size 65536 --variant strided >"$out/logs/07_strided_ncu.txt" 2>&1
  python3 scripts/ncu_shared_by_instruction.py /tmp/course_strided.ncu-rep 2>&1 |
    tee "$out/logs/07_strided_steps.txt"
fi

# Chapter 08's lesson: what holds the best kernels below cuBLAS, cuBLAS's own kernel beside them.
if named 08_cp_async && extras; then
  step "08_cp_async: issue slots, stalls and occupancy at 4096^3 (ncu)"
  stalls=$(printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' selected \
    not_selected dispatch_stall no_instruction barrier short_scoreboard long_scoreboard wait \
    math_pipe_throttle mio_throttle)
  for v in cublas ch06_best async_4 wide_3_swizzled tma_wide_3 tma_wide_256; do
    # cuBLAS's kernel is named sm80_xmma_gemm_...; ours start with gemm_ (the baseline runs first).
    [ "$v" = cublas ] && k=gemm || k='^gemm_'
    ncu --clock-control none --kernel-name "regex:$k" --launch-skip 2 --launch-count 1 \
      --metrics "${stalls}sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,gpu__time_duration.sum" \
      build/bin/08_cp_async --bench --reps 1 --shape 4096x4096x4096 --variant "$v" 2>&1 |
      sed -n '/==PROF== Disconnected/,$p'
  done | tee "$out/logs/08_limits.txt"
fi

# The stubs, in their own build folder (build-exercises/): CI cannot run a GPU-graded exercise.
if { [ $all -eq 1 ] || [ ${#chapters[@]} -gt 0 ]; } && extras; then
  step "exercise stubs: each exercise test must fail on its stub, here on the GPU"
  scripts/exercise_stubs_fail.sh --gpu "${chapters[@]+"${chapters[@]}"}" 2>&1 |
    tee "$out/logs/exercises.txt"
fi

step "pack"
mkdir -p "$out/results" "$out/plots"
tar czf "$out/gpu_suite.tar.gz" -C "$out" logs results plots \
  $(for f in h200_calibration.csv h200_matrix.csv; do [ -f "$out/$f" ] && echo "$f"; done)
rm -rf "$out/logs" "$out/results" "$out/plots"
ls -la "$out"
