#!/usr/bin/env bash
# sanitize.sh TOOL GPU_PROBE PROGRAM ARGS...: runs PROGRAM under compute-sanitizer --tool TOOL
# (memcheck, racecheck, synccheck, initcheck); any report fails the test. Skips (77) without
# compute-sanitizer or without a GPU; fails if the GPU probe fails otherwise (say, a build with
# no code for this GPU).
tool=$1 probe=$2; shift 2
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
[ -n "$sanitizer" ] || {
  echo "skipped: compute-sanitizer not found (it comes with the CUDA toolkit: install the" \
    "toolkit's sanitizer component and put its bin/ on PATH)"
  exit 77
}
"$probe"; rc=$?
[ $rc -eq 77 ] && { echo "skipped: no usable CUDA device"; exit 77; }
[ $rc -eq 0 ] || { echo "course_gpu_probe failed (exit $rc)"; exit 1; }
extra=()
[ "$tool" = racecheck ] && extra=(--racecheck-report all)
exec "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 1 --print-limit 20 "$@"
