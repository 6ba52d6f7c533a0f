#!/usr/bin/env bash
# plot_check.sh PLOT_GP CSV OUTDIR: gnuplot turns CSV into PNGs under OUTDIR; each must be a real
# PNG of some size. Skips (77) without gnuplot.
gp=$1 csv=$2 out=$3
command -v gnuplot >/dev/null || {
  echo "skipped: gnuplot not found (install it: sudo apt-get install gnuplot-nox, sudo dnf install" \
    "gnuplot, brew install gnuplot)"
  exit 77
}
# A chapter whose reference results are not measured yet has nothing to draw: skipped, not
# passed (its issue stays open until a GPU run commits them).
[ -f "$csv" ] || { echo "skipped: no committed results yet ($csv)"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
gnuplot -e "csv='$csv'; outdir='$out'" "$gp" || { echo "gnuplot failed on $gp"; exit 1; }
n=0
for png in "$out"/*.png; do
  [ -f "$png" ] || continue
  sig=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
  size=$(wc -c <"$png")
  if [ "$sig" != "89504e470d0a1a0a" ] || [ "$size" -lt 2000 ]; then
    echo "$png is not a valid plot (signature $sig, $size bytes)"; exit 1
  fi
  echo "ok $png ($size bytes)"
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "$gp wrote no PNG"; exit 1; }
