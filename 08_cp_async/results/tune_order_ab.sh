#!/usr/bin/env bash
# tune_order_ab.sh build|run DIR: why the tuner times 128 x 256 stream-K faster than the sweep at
# 8192^3 and 2048 x 2048 x 8192 (NOTES.md, the thirty-sixth session, items 4 and 8).
#   build (no GPU needed, about 2 minutes on 2 cores): 08_sgemm_tune with tune_order.patch and
#     08_cp_async, both of HEAD, for sm_90, into DIR/bin (a worktree under $TMPDIR; this tree is
#     not touched). Carry DIR to the GPU.
#   run (on an H200): at each shape, the tuner's way (a warm-up and 4 calls a choice a round) and
#     the benchmark's way (TUNE_BENCH_ORDER=1: cuBLAS of the shape, then 2 warm-ups and 4 calls),
#     each twice, alternating; then the sweep's own way, each choice forced by a one-row table
#     (--bench --part shapes --variant auto --shape S). Results in $OUT/tune_order.tgz.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ab_tree.sh
. "$here/ab_tree.sh"
ab_args tune_order_ab.sh "$@"
if [ "$mode" = build ]; then
  mkdir -p "$dir/bin"
  work=${TMPDIR:-/tmp}/tune_order_build
  ab_worktree "$work"
  git -C "$tree" apply "$here/tune_order.patch" || exit 1
  cmake -S "$tree" -B "$work/build" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
    >/dev/null || exit 1
  cmake --build "$work/build" -j "$(nproc)" --target 08_sgemm_tune 08_cp_async \
    >"$work/build.log" 2>&1 || { echo "tune_order_ab.sh: build failed ($work/build.log)" >&2; exit 1; }
  cp "$work/build/bin/08_sgemm_tune" "$dir/bin/08_sgemm_tune_order"
  cp "$work/build/bin/08_cp_async" "$dir/bin/08_cp_async_head"
  exit 0
fi
raw=/tmp/tune_order
rm -rf "$raw"
mkdir -p "$raw"
chmod +x "$dir"/bin/*
pack() { tar czf "${OUT:-/tmp}/tune_order.tgz" -C /tmp tune_order; }
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv >"$raw/gpu.txt" 2>&1
for s in 8192x8192x8192 2048x2048x8192; do
  for r in 1 2; do
    TUNE_ONLY=$s "$dir/bin/08_sgemm_tune_order" --csv "$raw/tuner_${s}_$r.csv" --calls 4 \
      >"$raw/tuner_${s}_$r.out" 2>&1
    TUNE_ONLY=$s TUNE_BENCH_ORDER=1 "$dir/bin/08_sgemm_tune_order" --csv "$raw/bench_${s}_$r.csv" \
      --calls 4 >"$raw/bench_${s}_$r.out" 2>&1
    pack
  done
  IFS=x read -r m n k <<<"$s"
  for choice in 128x256,sk 128x128_128t,dp 128x256,dp; do
    { grep '^#' "$here/h200_sgemm_table.csv"; grep '^M,' "$here/h200_sgemm_table.csv"
      echo "$m,$n,$k,$choice,0,132,1,1.0,1.0,1.0,5,1,1"; } >"$raw/force.table"
    for r in 1 2; do
      COURSE_SGEMM_TABLE=$raw/force.table "$dir/bin/08_cp_async_head" --bench --part shapes \
        --variant auto --shape "$s" --csv "$raw/sweep_${s}_${choice/,/_}_$r.csv" \
        >"$raw/sweep_${s}_${choice/,/_}_$r.out" 2>&1
    done
  done
  pack
done
