#!/usr/bin/env bash
# ptx_check.sh ARCH...: what an older GPU's code paths do, on a newer GPU. For each ARCH (e.g. 80,
# 75) builds the course as PTX alone (-DCMAKE_CUDA_ARCHITECTURES=ARCH-virtual, in build-ptxARCH/),
# which the driver JIT-compiles for the GPU at hand, then runs every gpu-labelled test and each
# chapter's --check. A variant whose feature its code lacks (cp.async below compute_80, the TMA
# below compute_90) must be listed as skipped, never run: every test passes or is skipped with
# its reason, every --check exits 0 or 77. Logs under $OUT (default build/ptx_check).
# Exit 0 when that holds for every ARCH.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$src/build/ptx_check}
mkdir -p "$out"
cd "$src"
bad=0
for arch in "$@"; do
  b=build-ptx$arch
  echo "=== compute_$arch (PTX only), JIT-compiled for this GPU ($(date -u +%H:%M:%S))"
  cmake -S . -B "$b" -DCMAKE_CUDA_ARCHITECTURES="$arch-virtual" >"$out/configure_$arch.txt" 2>&1 ||
    { tail -n 30 "$out/configure_$arch.txt"; bad=1; continue; }
  cmake --build "$b" -j "$(nproc)" >"$out/build_$arch.txt" 2>&1 ||
    { tail -n 30 "$out/build_$arch.txt"; bad=1; continue; }
  (cd "$b" && ctest -L gpu --timeout 600 --output-on-failure) >"$out/ctest_$arch.txt" 2>&1 || bad=1
  grep -E "tests passed|tests failed|\(Failed\)|Not Run|Skipped" "$out/ctest_$arch.txt"
  for chapter in [0-9][0-9]_*/; do # each chapter's program (08_sgemm_tune has no --check)
    prog=$b/bin/${chapter%/}
    [ -x "$prog" ] || { echo "$prog: not built"; bad=1; continue; }
    "$prog" --check >"$out/check_$(basename "$prog")_$arch.txt" 2>&1
    rc=$?
    echo "$(basename "$prog") --check (compute_$arch): exit $rc"
    grep -h "skipped" "$out/check_$(basename "$prog")_$arch.txt" | head -n 3 | sed 's/^/    /'
    # a skip must say why
    [ $rc -eq 0 ] || { [ $rc -eq 77 ] && grep -q "^skipped: " "$out/check_$(basename "$prog")_$arch.txt"; } ||
      bad=1
  done
done
exit $bad
