#!/usr/bin/env bash
# picture_check.sh PROGRAM PICTURES_DIR OUTDIR: PROGRAM --picture OUTDIR must write exactly the
# pictures committed in PICTURES_DIR (NAME.csv equal, byte for byte: the committed pictures are
# what the index functions give today), and each committed NAME.png must be a PNG. Where gnuplot
# is, PROGRAM must draw each one too (exit 0); without it, exit 77 from PROGRAM is expected and
# the CSVs are still compared. Then again on a PATH without gnuplot: exit 77, every CSV written.
set -u
prog=$1 committed=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$prog" --picture "$out" >"$out.log" 2>&1; rc=$?
want=0
command -v gnuplot >/dev/null || want=77
[ $rc -eq $want ] || { echo "$prog --picture exited $rc, want $want:"; cat "$out.log"; exit 1; }
fails=0 n=0
png_ok() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
for csv in "$committed"/*.csv "$out"/*.csv; do
  [ -f "$csv" ] || continue
  name=$(basename "$csv" .csv)
  [ "$csv" = "$committed/$name.csv" ] || [ -f "$committed/$name.csv" ] ||
    { echo "FAILED: $name.csv is drawn but not committed in $committed"; fails=$((fails + 1)); continue; }
  [ "$csv" = "$committed/$name.csv" ] || continue
  n=$((n + 1))
  if ! cmp -s "$csv" "$out/$name.csv"; then
    echo "FAILED: $name.csv differs from what $prog draws now (redraw: $prog --picture $committed)"
    diff "$csv" "$out/$name.csv" | head -n 6
    fails=$((fails + 1))
  fi
  png_ok "$committed/$name.png" || { echo "FAILED: $committed/$name.png is not a PNG"; fails=$((fails + 1)); }
  [ $want -ne 0 ] || png_ok "$out/$name.png" || { echo "FAILED: no $name.png drawn"; fails=$((fails + 1)); }
done
[ $n -gt 0 ] || { echo "FAILED: no picture committed in $committed"; exit 1; }
mkdir -p "$out/nogp" "$out/empty_path"
PATH=$out/empty_path "$prog" --picture "$out/nogp" >/dev/null 2>&1; rc=$?
drawn=$(ls "$out/nogp"/*.csv 2>/dev/null | wc -l)
[ $rc -eq 77 ] && [ "$drawn" -eq $n ] ||
  { echo "FAILED: without gnuplot $prog --picture exited $rc (want 77) with $drawn of $n CSVs"; fails=$((fails + 1)); }
[ $want -eq 0 ] || echo "picture_check: gnuplot not found: the CSVs compared, no PNG drawn"
echo "picture_check: $n pictures, $fails failures"
[ $fails -eq 0 ]
