#!/usr/bin/env bash
# exercise_stubs_fail.sh [--gpu] [CHAPTER...]: configures the exercises preset (every chapter
# against its exercise.cu stub, in build-exercises/, apart from the course's build/), builds the
# exercise tests (test_NN_topic_exercise, cmake/Course.cmake) and proves that every exercise test
# fails on its stub, so that no exercise can be passed by doing nothing. A test that skips (77: it
# needs a GPU) is noted; with --gpu (on a GPU machine) a skip is a failure, since there the proof
# is owed. CHAPTER (e.g. 07_warp_shuffle) limits the proof to those chapters' exercise tests; none
# means all.
# Exit 0 when every stub fails its test.
set -uo pipefail
cd "$(dirname "$0")/.."
gpu=0
if [ "${1:-}" = "--gpu" ]; then gpu=1; shift; fi
chapters=("$@")
build=build-exercises # the exercises preset's binaryDir
cmake --preset exercises >/dev/null || exit 1
mapfile -t exercises < <(ctest --preset exercises -N | sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p')
if [ ${#chapters[@]} -gt 0 ]; then
  mapfile -t exercises < <(printf '%s\n' "${exercises[@]}" |
    grep -E "^($(IFS='|'; echo "${chapters[*]}"))\." || true)
fi
[ ${#exercises[@]} -gt 0 ] || { echo "no exercise tests registered${chapters:+ for ${chapters[*]}}"; exit 1; }
# Only the exercise tests' programs: NN_topic.exercise[_gpu] runs test_NN_topic_exercise.
mapfile -t targets < <(printf 'test_%s_exercise\n' "${exercises[@]%%.*}" | sort -u)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$build/exercises_build.log" 2>&1 ||
  { tail -n 30 "$build/exercises_build.log"; echo "exercises preset: build failed"; exit 1; }
bad=0
for t in "${exercises[@]}"; do
  out=$(ctest --test-dir "$build" -R "^${t//./\\.}\$" 2>&1 || true)
  if grep -q "Passed" <<<"$out"; then
    echo "FAIL: $t passes on the stub: the exercise could be passed by doing nothing"; bad=1
  elif grep -q "Skipped\|Not Run" <<<"$out"; then
    if [ $gpu -eq 1 ]; then
      echo "FAIL: $t skipped on a GPU machine: its stub is not proven to fail"; bad=1
    else
      echo "note: $t skipped here (needs a GPU); its stub cannot be proven to fail on this machine"
    fi
  else
    echo "ok: $t fails on the stub"
  fi
done
echo "${#exercises[@]} exercise tests: $([ $bad -eq 0 ] && echo "every stub fails" || echo "NOT all stubs fail")"
exit $bad
