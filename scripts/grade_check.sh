#!/usr/bin/env bash
# grade_check.sh report BUILD GENERATOR | solutions BUILD PROBE: the tests of scripts/grade.sh
# (scripts/CMakeLists.txt).
#   report     configures the grade fixture (scripts/grade_fixture: canned exercise tests, one
#              chapter for each outcome) in BUILD/grade_fixture with GENERATOR, and holds
#              grade.sh's report and exit code on it to what they must be: 1 when a chapter
#              failed, 77 when none failed and a GPU part was not run, 0 when all passed, 2 for a
#              usage error.
#   solutions  grades the solutions in BUILD (a configured build of the course, the test's own):
#              every chapter must be `passed` or `GPU part not run`, never `failed`; without a GPU
#              (PROBE, course_gpu_probe, exits 77) exactly the chapters with a GPU part
#              (NN_topic.solution_gpu) `GPU part not run`; and the exit code 77 exactly when a GPU
#              part was not run, else 0.
# Exit 0 when grade.sh did as it must, 1 when not.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-} build=${2:-}
case $mode in
  report) [ $# -eq 3 ] ;;
  solutions) [ $# -eq 3 ] ;;
  *) false ;;
esac || {
  echo "usage: scripts/grade_check.sh report BUILD GENERATOR | solutions BUILD PROBE" >&2
  exit 2
}
bad=0
# expect CODE OUT: grade.sh's last run (its exit code rc, its output out) exited CODE.
expect() {
  [ "$rc" -eq "$1" ] || { echo "FAIL: grade.sh $2 exited $rc, not $1:"; echo "$out"; bad=1; }
}

if [ "$mode" = report ]; then
  fixture=$build/grade_fixture shown=${build#"$PWD"/}/grade_fixture # as grade.sh names it
  cmake -S scripts/grade_fixture -B "$fixture" -G "$3" >/dev/null || exit 1
  out=$(scripts/grade.sh --build-dir "$fixture" 01_bank_basics 02_padding 03_xor_swizzle \
    04_cute_general 05_transpose 06_gemm_tiling 07_warp_shuffle 08_cp_async 2>&1)
  rc=$?
  expect 1 "on every chapter of the fixture"
  want=$(cat <<EOF
grading each chapter's exercise.cu, built in $shown/
01_bank_basics   failed
    01_bank_basics.exercise: test_bank_basics: 1 of 5 expectations held
    01_bank_basics/test_bank_basics.c:13: FAILED got == want: bank_of(0) = 7, want 0
    01_bank_basics/test_bank_basics.c:13: FAILED got == want: bank_of(4) = 7, want 1
    01_bank_basics/test_bank_basics.c:13: FAILED got == want: bank_of(8) = 7, want 2
02_padding       passed
03_xor_swizzle   failed
    03_xor_swizzle.exercise_gpu: Failed
    grading 4 shapes
    the kernel stopped: an illegal memory access
    at shape 3x5
04_cute_general  failed: does not compile
    04_cute_general/exercise.cu(3): error: identifier "x" is undefined
    the whole log: cmake --build $shown --target test_04_cute_general_exercise
05_transpose     failed (GPU part not run)
    05_transpose.exercise: test_transpose --cpu: 0 of 1 expectations held
    05_transpose/test_transpose.cu:44: FAILED ok: not a bijection
    skipped: no GPU here (canned)
06_gemm_tiling   passed
07_warp_shuffle  GPU part not run
    skipped: no GPU here (canned)
08_cp_async      not graded here (needs a GPU)
    skipped: a GPU of compute capability 8.0 is needed (canned)
2 passed, 4 failed, 1 GPU part not run, 1 not graded here (needs a GPU)
a chapter's whole output: ctest --test-dir $shown -R 01_bank_basics.exercise --output-on-failure
a GPU part not run is not passed: grade again on a machine with an NVIDIA GPU
EOF
  )
  [ "$out" = "$want" ] ||
    { echo "FAIL: the report differs (< want, > got):"; diff <(echo "$want") <(echo "$out")
      bad=1; }
  for args in "0 02_padding 06_gemm_tiling" "77 02_padding 07_warp_shuffle" "77 08_cp_async" \
    "2 no_such_chapter" "2 --solutions 02_padding"; do
    read -ra words <<<"$args"
    out=$(scripts/grade.sh --build-dir "$fixture" "${words[@]:1}" 2>&1)
    rc=$?
    expect "${words[0]}" "${words[*]:1}"
  done
else
  out=$(scripts/grade.sh --solutions --build-dir "$build" 2>&1)
  rc=$?
  echo "$out"
  "$3" >/dev/null 2>&1
  gpu=$? # course_gpu_probe: 0 a GPU, 77 none
  n=0
  for d in [0-9][0-9]_*/exercise.cu; do
    c=${d%%/*} n=$((n + 1))
    verdict=$(sed -n "s/^$c  *//p" <<<"$out")
    if [ $gpu -ne 0 ]; then
      want=passed # without a GPU: a chapter with a GPU part cannot have passed
      [[ $(ctest --test-dir "$build/$c" -N) == *" $c.solution_gpu"$'\n'* ]] &&
        want="GPU part not run"
      [ "$verdict" = "$want" ] ||
        { echo "FAIL: $c: '$verdict', not '$want', without a GPU"; bad=1; }
    else
      grep -qxE 'passed|GPU part not run' <<<"$verdict" ||
        { echo "FAIL: $c: '$verdict', not passed or GPU part not run"; bad=1; }
    fi
  done
  [ "$n" -gt 0 ] || { echo "FAIL: no chapter found"; bad=1; }
  if grep -q '  GPU part not run$' <<<"$out"; then
    expect 77 "--solutions, a GPU part not run,"
  else
    expect 0 "--solutions, every chapter passed,"
  fi
fi
[ $bad -eq 0 ] && echo "ok: grade.sh $mode as it must be"
exit $bad
