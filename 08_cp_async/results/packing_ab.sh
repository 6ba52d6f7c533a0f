#!/usr/bin/env bash
# packing_ab.sh build|run DIR: the A/B of this folder's three packing patches (NOTES.md, the
# thirty-fourth and thirty-fifth sessions) against main, on three shapes whose operands are packed
# first: 1531 x 1531 x 8191, 4097^3 and 6007 x 6007 x 1031.
#   build (on a machine without a GPU, about 4 minutes on 2 cores): one 08_cp_async for sm_90
#     per tree into DIR/bin: main; pack_shuffle; packed_rows_128b; both; all three
#     (pack_dependents on top), built in a worktree of HEAD under $TMPDIR (this tree is not
#     touched). DIR/bin is 35 MB: carry DIR (e.g. a folder that .git/info/exclude names).
#   run (on the GPU, DIR carried; about 3 minutes on an H100): each binary in turn on each shape,
#     two rounds, the all binary's --check of part 4 and memcheck on a small packed shape, then
#     1531 x 1531 x 8191 forced to each stream-K tile (a one-row table) on main and on all three.
#     Results in /tmp/packing_ab (each NAME.csv's rows in NAME_shapes.csv, part 4's side file),
#     packed into $OUT/packing_ab.tgz after every step, so that a call cut short still returns
#     what it measured. "main" is HEAD; the patches are this folder's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ab_tree.sh
. "$here/ab_tree.sh"
ab_args packing_ab.sh "$@"
trees=(main shfl r32 both all)
patches_of() {
  case $1 in
  main) ;;
  shfl) echo pack_shuffle ;;
  r32) echo packed_rows_128b ;;
  both) echo pack_shuffle packed_rows_128b ;;
  all) echo pack_shuffle packed_rows_128b pack_dependents ;;
  esac
}

if [ "$mode" = build ]; then
  mkdir -p "$dir/bin"
  work=${TMPDIR:-/tmp}/packing_ab_build # DIR holds only the binaries: it travels to the GPU
  ab_worktree "$work"
  cmake -S "$tree" -B "$work/build" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
    >/dev/null || exit 1
  for t in "${trees[@]}"; do
    git -C "$tree" checkout -q -- .
    for p in $(patches_of "$t"); do git -C "$tree" apply "$here/$p.patch" || exit 1; done
    cmake --build "$work/build" -j "$(nproc)" --target 08_cp_async >"$work/build_$t.log" 2>&1 || {
      echo "packing_ab.sh: $t does not build (see $work/build_$t.log)" >&2
      exit 1
    }
    cp "$work/build/bin/08_cp_async" "$dir/bin/08_cp_async_$t"
  done
  exit 0
fi

raw=/tmp/packing_ab # emptied first: a warm machine may hold an earlier run's
out=${OUT:-/tmp}
rm -rf "$raw"
mkdir -p "$raw"
chmod +x "$dir"/bin/*
pack() { tar czf "$out/packing_ab.tgz" -C /tmp packing_ab; }
log() { echo "$1 $(($(date +%s) - t0)) s" >>"$raw/times.txt"; }
t0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv >"$raw/gpu.txt" 2>&1
bench() { # TREE SHAPE NAME [TABLE]
  COURSE_SGEMM_TABLE=${4:-} "$dir/bin/08_cp_async_$1" --bench --part shapes --variant auto \
    --shape "$2" --csv "$raw/$3.csv" >"$raw/$3.out" 2>&1
}
round() {
  for s in 1531x1531x8191 4097x4097x4097 6007x6007x1031; do
    for t in "${trees[@]}"; do bench "$t" "$s" "${t}_${s}_$1"; done
    pack
  done
  log "round $1"
}
round 1
"$dir/bin/08_cp_async_all" --check --part shapes >"$raw/check_all.out" 2>&1
log "check all rc=$?"
compute-sanitizer --tool memcheck --error-exitcode 1 "$dir/bin/08_cp_async_all" --check \
  --part shapes --shape 1531x1531x301 >"$raw/memcheck_all.out" 2>&1
log "memcheck all rc=$?"
pack
round 2
for tile in 128x128 128x256 128x128_128t; do
  { grep '^#' "$here/h200_sgemm_table.csv"; grep '^M,' "$here/h200_sgemm_table.csv"
    echo "1536,1536,8192,$tile,sk,0,132,280,0.8,0.8,0.8,5,1,1"; } >"$raw/force_$tile.table"
  for t in main all; do bench "$t" 1531x1531x8191 "force_${t}_$tile" "$raw/force_$tile.table"; done
done
log forced
pack
