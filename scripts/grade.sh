#!/usr/bin/env bash
# grade.sh [--solutions] [--build-dir DIR] [CHAPTER...]: grades the exercises as written in each
# chapter's exercise.cu. It configures the exercises preset (build-exercises/, apart from the
# course's build/), builds each chapter's exercise test (test_NN_topic_exercise,
# cmake/Course.cmake), runs its parts (NN_topic.exercise, and NN_topic.exercise_gpu for a kernel
# exercise) and prints one line a chapter:
#   passed                          every part passed
#   failed                          a part failed or did not compile; a few of its lines follow
#   GPU part not run                the CPU part passed and the GPU part skipped (77: no GPU, or
#                                   one too old); its skipped: line follows. It is not a pass.
#   not graded here (needs a GPU)   the only part is the GPU's, and it skipped
# then the counts. --solutions grades solution.cu instead, in the course's build/ (the default
# preset), with its NN_topic.solution[_gpu] tests: the instructor's check that every answer
# passes. --build-dir DIR grades in DIR, a build folder configured already, without configuring
# it (the CTest test of this script grades its own build). Each test runs by CTest in its
# chapter's build folder (DIR/NN_topic), whose Testing/ log is that folder's own, so that this
# script can run inside a CTest run of the same build. CHAPTER (e.g. 06_gemm_tiling) limits it to
# those chapters; none means all.
# Exit 0 when every chapter passed, 1 when one failed, 77 when none failed but a GPU part was not
# run, 2 usage error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t all < <(cd "$root" && for d in [0-9][0-9]_*/exercise.cu; do echo "${d%%/*}"; done)
usage() {
  [ $# -eq 0 ] || echo "grade.sh: $*" >&2
  echo "usage: scripts/grade.sh [--solutions] [--build-dir DIR] [CHAPTER...]" >&2
  echo "chapters: ${all[*]}" >&2
  exit 2
}
kind=exercise preset=exercises build=""
while [ $# -gt 0 ]; do
  case $1 in
    --solutions) kind=solution preset=default; shift ;;
    --build-dir)
      [ $# -ge 2 ] && [ -d "$2" ] || usage "--build-dir needs a build folder"
      build=$(cd "$2" && pwd); shift 2 ;;
    -h | --help) usage ;;
    -*) usage "unknown option $1" ;;
    *) break ;;
  esac
done
chapters=("$@")
[ ${#chapters[@]} -gt 0 ] || chapters=("${all[@]}")
for c in "${chapters[@]}"; do
  [[ " ${all[*]} " == *" $c "* ]] || usage "no chapter $c"
done
cd "$root"
if [ -z "$build" ]; then
  build=build-$preset # the preset's binaryDir
  [ $preset = default ] && build=build
  cmake --preset $preset >/dev/null || exit 1
fi
# Each chapter's parts: its tests NN_topic.KIND and NN_topic.KIND_gpu, as its build folder lists
# them.
declare -A parts
for c in "${chapters[@]}"; do
  parts[$c]=$(ctest --test-dir "$build/$c" -N 2>/dev/null |
    sed -n "s/^ *Test *#[0-9]*: \($c\.$kind\(_gpu\)\?\)$/\1/p")
  [ -n "${parts[$c]}" ] ||
    usage "${build#"$root"/}/ has no test $c.$kind: configure it with --preset $preset"
done
echo "grading each chapter's $kind.cu, built in ${build#"$root"/}/"

# run_part TEST: runs one test by CTest in its chapter's build folder. Sets result to CTest's word
# for it (Passed, Failed, Skipped, Timeout, ...) and output to what the test printed.
run_part() {
  local dir=$build/${1%%.*} re=${1//./\\.}
  rm -f "$dir/Testing/Temporary/LastTest.log"
  result=$(ctest --test-dir "$dir" -R "^$re\$" 2>&1 |
    sed -n "s/^ *[0-9]*\/[0-9]* *Test *#[0-9]*: $re \.*[* ]*\(.*[^ ]\) \+[0-9.]\+ sec$/\1/p")
  output=$(awk '/<end of output>/ { sub(/<end of output>.*/, ""); if ($0 != "") print; on = 0 }
                on { print } /^Output:$/ { getline; on = 1 }' \
    "$dir/Testing/Temporary/LastTest.log" | sed "s|$root/||g")
}

# grade CHAPTER: builds the chapter's test, runs its parts and prints its verdict; sets verdict
# (and first_failed, the first chapter whose test failed).
grade() {
  local c=$1 target=test_$1 why=() log t held lines gpu_skipped=0 ran=0 failed=0
  [ $kind = exercise ] && target=test_${c}_exercise
  if ! log=$(cmake --build "$build" -j "$(nproc)" --target "$target" 2>&1); then
    verdict=failed
    printf '%-16s failed: does not compile\n' "$c"
    # The compiler's and the linker's messages (not the -Werror of a command line).
    grep -m 3 -E '(^|[ :])error[ :#]|undefined reference' <<<"$log" | sed "s|$root/||g; s/^/    /"
    echo "    the whole log: cmake --build ${build#"$root"/} --target $target"
    return
  fi
  for t in ${parts[$c]}; do
    run_part "$t"
    case $result in
      Passed) ran=$((ran + 1)) ;;
      Skipped) gpu_skipped=1; why+=("$(grep -m 1 '^skipped:' <<<"$output")") ;;
      *)
        failed=1 ran=$((ran + 1)) first_failed=${first_failed:-$c}
        held=$(grep -m 1 'expectations held$' <<<"$output")
        lines=$(grep -m 3 'FAILED' <<<"$output") || lines=$(tail -n 3 <<<"$output")
        why+=("$t: ${held:-$result}" "$lines") ;;
    esac
  done
  if [ $failed -eq 1 ]; then
    verdict=failed
  elif [ $gpu_skipped -eq 0 ]; then
    verdict=passed
  elif [ $ran -gt 0 ]; then
    verdict="GPU part not run"
  else
    verdict="not graded here (needs a GPU)"
  fi
  printf '%-16s %s%s\n' "$c" "$verdict" \
    "$([ $failed -eq 1 ] && [ $gpu_skipped -eq 1 ] && echo " (GPU part not run)")"
  printf '%s\n' "${why[@]}" | grep -v '^$' | sed 's/^/    /'
}

passed=0 failed=0 not_run=0 not_graded=0 first_failed=""
for c in "${chapters[@]}"; do
  grade "$c"
  case $verdict in
    passed) passed=$((passed + 1)) ;;
    failed) failed=$((failed + 1)) ;;
    "GPU part not run") not_run=$((not_run + 1)) ;;
    *) not_graded=$((not_graded + 1)) ;;
  esac
done
echo "$passed passed, $failed failed, $not_run GPU part not run$(
  [ $not_graded -eq 0 ] || echo ", $not_graded not graded here (needs a GPU)")"
[ -z "$first_failed" ] || echo "a chapter's whole output:" \
  "ctest --test-dir ${build#"$root"/} -R $first_failed.$kind --output-on-failure"
[ $((not_run + not_graded)) -eq 0 ] ||
  echo "a GPU part not run is not passed: grade again on a machine with an NVIDIA GPU"
[ $failed -eq 0 ] || exit 1
[ $((not_run + not_graded)) -eq 0 ] || exit 77
exit 0
